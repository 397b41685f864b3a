import type { FastifyInstance } from "fastify";
import type { AppContext } from "../../platform/context.ts";
import type { WithEngine } from "../jobs/engine-host.ts";

/**
 * How long a company's dashboard answer is served again without asking the database. Run events
 * (from any process) and the company's own writes through this server drop it at once, so this only
 * bounds what other processes change without a run event (a licence set by support, an announcement).
 */
export const DASHBOARD_CACHE_MS = 1_000;

type Entry<T> = { generation: number; value?: T; until: number; pending?: Promise<T> };

/**
 * A per-company micro-cache of one answer: concurrent calls of a company share one computation,
 * and an answer computed while the company's data changed is handed to its callers but never kept.
 */
export class CompanyAnswerCache<T> {
  private readonly entries = new Map<number, Entry<T>>();

  constructor(private readonly ttlMs: number) {}

  get(companyId: number, compute: () => Promise<T>): Promise<T> {
    if (this.ttlMs <= 0) return compute();
    let entry = this.entries.get(companyId);
    if (!entry) {
      entry = { generation: 0, until: 0 };
      this.entries.set(companyId, entry);
    }
    if (entry.value !== undefined && Date.now() < entry.until) return Promise.resolve(entry.value);
    if (entry.pending) return entry.pending;
    const own = entry;
    const generation = own.generation;
    const pending = compute().then(
      (value) => {
        if (own.pending === pending) own.pending = undefined;
        // Kept only if nothing of the company changed meanwhile (and the entry is still the live one).
        if (own.generation === generation && this.entries.get(companyId) === own) {
          own.value = value;
          own.until = Date.now() + this.ttlMs;
        }
        return value;
      },
      (error: unknown) => {
        if (own.pending === pending) own.pending = undefined;
        throw error;
      },
    );
    own.pending = pending;
    return pending;
  }

  /** The company's data changed: its kept answer goes, and a computation under way is not kept. */
  invalidate(companyId: number) {
    const entry = this.entries.get(companyId);
    if (!entry) return;
    entry.generation++;
    entry.value = undefined;
    entry.pending = undefined;
    if (entry.generation > 1_000_000) this.entries.delete(companyId);
  }

  get size() {
    return this.entries.size;
  }
}

const caches = new WeakMap<AppContext, CompanyAnswerCache<unknown>>();

/** The dashboard's cache of a server (one per context), dropped by the run events its hub hears. */
export function dashboardCache<T>(ctx: AppContext & WithEngine): CompanyAnswerCache<T> {
  let cache = caches.get(ctx);
  if (!cache) {
    const created = new CompanyAnswerCache<unknown>(DASHBOARD_CACHE_MS);
    ctx.engine.hub.onEvent((event) => created.invalidate(event.companyId));
    caches.set(ctx, created);
    cache = created;
  }
  return cache as CompanyAnswerCache<T>;
}

/**
 * Any call that may write (not GET, HEAD or OPTIONS) drops its company's dashboard before its answer
 * leaves, so a panel that saves something and reloads sees the change.
 */
export function invalidateDashboardOnWrites(app: FastifyInstance, ctx: AppContext & WithEngine) {
  app.addHook("onSend", async (request) => {
    if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return;
    const companyId = request.auth?.companyId;
    if (typeof companyId === "number") dashboardCache(ctx).invalidate(companyId);
  });
}
