import { createHmac, timingSafeEqual } from "node:crypto";
import { CHECK_DRIFTS, type ConnectorKind, driftAnswer, type TransportFetch } from "@ep/connectors";
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import {
  CHANNEL_SANDBOXES,
  channelSandboxFor,
  type OrderArrivals,
  SANDBOX_SYSTEMS,
  type SandboxInstance,
  type SandboxProfile,
  type SandboxSystem,
  sandboxFor,
} from "./registry.ts";

/** The header a company's connection check marks its calls to its own sandbox with. */
export const DRILL_HEADER = "x-sandbox-drill";

/** Tenants kept in memory per system; the least recently used (never a pinned one) make room. */
const MAX_TENANTS = 100;

type Tenant = {
  instance: Promise<SandboxInstance>;
  usedAt: number;
  pinned: boolean;
  profile: SandboxProfile;
};

/**
 * The sandbox tenants of every built-in system. A company's tenant key and logins are derived from
 * the server's secret, so they are the same after a restart and a saved connection keeps working;
 * the tenant itself (its seeded catalogue) is rebuilt from its seed on first use. A key another
 * company could guess names no tenant: it must carry the server's signature.
 */
/** What a module that reaches the built-in sandboxes asks of the context. */
export type WithSandbox = { sandbox: SandboxHub };

export class SandboxHub {
  private readonly tenants = new Map<string, Tenant>();
  /** Armed drifts: `system/companyId` → the key the next answer carrying it loses. */
  private readonly drifts = new Map<string, { key: string; within: string }>();

  constructor(
    /** `config.sandboxUrl`: `…/sandbox`. */
    readonly baseUrl: string,
    private readonly secret: string,
    private readonly logger: Logger,
  ) {}

  get systems(): readonly SandboxSystem[] {
    return SANDBOX_SYSTEMS;
  }

  /** The marketplaces' sandboxes (sales channels beside the shop). */
  get channelSystems(): readonly SandboxSystem[] {
    return CHANNEL_SANDBOXES;
  }

  /** Whether `credentials` are the company's login to its own sandbox of that marketplace. */
  ownsChannel(companyId: number, system: string, credentials: Record<string, string>): boolean {
    const sandbox = channelSandboxFor(system);
    if (!sandbox) return false;
    return Object.entries(this.credentials(sandbox, companyId)).every(([k, v]) => credentials[k] === v);
  }

  private sign(text: string): string {
    return createHmac("sha256", this.secret).update(`sandbox:${text}`).digest("base64url");
  }

  /** The company's tenant key: `c<companyId>-<signature>`. */
  tenantKey(companyId: number): string {
    return `c${companyId}-${this.sign(`tenant:${companyId}`).slice(0, 16)}`;
  }

  private companyOf(tenantKey: string): number | undefined {
    const m = /^c(\d{1,12})-[A-Za-z0-9_-]{16}$/.exec(tenantKey);
    if (!m) return undefined;
    const expected = Buffer.from(this.tenantKey(Number(m[1])));
    const given = Buffer.from(tenantKey);
    return expected.length === given.length && timingSafeEqual(expected, given) ? Number(m[1]) : undefined;
  }

  /** The company's login to its sandbox of `system`, as the connection form takes it. */
  credentials(system: SandboxSystem, companyId: number): Record<string, string> {
    const tenant = this.tenantKey(companyId);
    return system.credentials(`${this.baseUrl}/${system.system}/${tenant}`, (name) =>
      this.sign(`${system.system}:${tenant}:${name}`).slice(0, 24),
    );
  }

  /** Whether `credentials` are the company's login to its own sandbox of that system. */
  owns(companyId: number, kind: ConnectorKind, type: number, credentials: Record<string, string>): boolean {
    const system = sandboxFor(kind, type);
    if (!system) return false;
    return Object.entries(this.credentials(system, companyId)).every(([k, v]) => credentials[k] === v);
  }

  /**
   * Arms a vendor-change drill on the company's sandbox of `system` (issue 36): the next answer of its
   * drifting read answers without the system's drift key, once. Answers the read it breaks, or undefined
   * when the system has no drift.
   */
  armDrift(system: SandboxSystem, companyId: number): string | undefined {
    const drift = CHECK_DRIFTS[system.system];
    if (!drift) return undefined;
    this.drifts.set(`${system.system}/${companyId}`, { key: drift.key, within: drift.within });
    return drift.operation;
  }

  /** The mark the company's own connection check carries to its sandbox of `system` (see `withDrill`). */
  private drillMark(system: string, companyId: number): string {
    return this.sign(`drill:${system}:${companyId}`).slice(0, 24);
  }

  /**
   * The transport of a company's connection check, marked for its own sandbox tenant of `system`: an
   * armed drill drifts only answers to a call carrying the mark, so whoever else calls that tenant (a
   * company that saved this login as its "real" system, a job run) gets the emulator's true answers.
   */
  withDrill(inner: TransportFetch, system: SandboxSystem, companyId: number): TransportFetch {
    const tenant = `${this.baseUrl}/${system.system}/${this.tenantKey(companyId)}/`;
    const mark = this.drillMark(system.system, companyId);
    return Object.assign(
      (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
        const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        if (!url.startsWith(tenant)) return inner(input, init);
        const headers = new Headers(init?.headers);
        headers.set(DRILL_HEADER, mark);
        return inner(input, { ...init, headers });
      },
      { ready: inner.ready?.bind(inner) },
    );
  }

  /**
   * An emulator's answer, drifted when a drill is armed for its tenant (see `armDrift`) and the call
   * carries the tenant company's own drill mark (`withDrill`).
   */
  drifted(url: string, payload: string, mark: string | undefined): string | undefined {
    const m = /^\/sandbox\/([\w-]+)\/([\w-]+)\//.exec(url);
    const companyId = m ? this.companyOf(m[2]!) : undefined;
    if (companyId === undefined || mark === undefined) return undefined;
    const expected = Buffer.from(this.drillMark(m![1]!, companyId));
    const given = Buffer.from(mark);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    const at = `${m![1]}/${companyId}`;
    const drift = this.drifts.get(at);
    if (!drift) return undefined;
    const out = driftAnswer(payload, drift.key, drift.within);
    if (out !== undefined) this.drifts.delete(at);
    return out;
  }

  /** The emulator app answering for `tenantKey` of `system`, started on first use. */
  async app(systemName: string, tenantKey: string): Promise<FastifyInstance | undefined> {
    const system = [...SANDBOX_SYSTEMS, ...CHANNEL_SANDBOXES].find((s) => s.system === systemName);
    const companyId = this.companyOf(tenantKey);
    if (!system || companyId === undefined) return undefined;
    return (await this.tenant(system, companyId, "standard", false)).app;
  }

  /** The company's running emulator of `systemName` (its test controls), or undefined when none runs. */
  async emulatorOf(systemName: string, companyId: number): Promise<unknown> {
    const tenant = this.tenants.get(`${systemName}/${companyId}`);
    return tenant ? (await tenant.instance).emulator : undefined;
  }

  /**
   * Starts (or finds) a company's tenant now. The demo company pins its tenants with the demo's larger
   * catalogue, so they are never evicted or rebuilt smaller.
   */
  async start(
    system: SandboxSystem,
    companyId: number,
    profile: SandboxProfile,
    arrivals?: OrderArrivals,
  ): Promise<void> {
    await this.tenant(system, companyId, profile, profile === "demo", arrivals);
  }

  private tenant(
    system: SandboxSystem,
    companyId: number,
    profile: SandboxProfile,
    pin: boolean,
    arrivals?: OrderArrivals,
  ): Promise<SandboxInstance> {
    const key = `${system.system}/${companyId}`;
    const found = this.tenants.get(key);
    // The demo's tenants hold the demo's larger catalogue: one a run started first (a run queued before a
    // restart, picked up before the demo pinned its tenants) with the standard one is rebuilt, or the
    // demo's orders would name SKUs its ERP does not have.
    if (found && !(profile === "demo" && found.profile !== "demo")) {
      found.usedAt = Date.now();
      found.pinned ||= pin;
      return found.instance;
    }
    if (found) {
      this.tenants.delete(key);
      void found.instance.then((t) => t.close()).catch(() => undefined);
    }
    this.evict();
    const credentials = this.credentials(system, companyId);
    const instance = system.start({
      // ERP and shop of one company share the seed, so their SKUs match.
      seed: profile === "demo" ? 2026 : 10_000 + companyId,
      baseUrl: `${this.baseUrl}/${system.system}/${this.tenantKey(companyId)}`,
      credentials,
      profile,
      arrivals,
    });
    this.tenants.set(key, { instance, usedAt: Date.now(), pinned: pin, profile });
    instance.catch(() => this.tenants.delete(key));
    this.logger.info({ system: system.system, companyId, profile }, "sandbox tenant started");
    return instance;
  }

  private evict(): void {
    const system = [...this.tenants.entries()].filter(([, t]) => !t.pinned);
    if (this.tenants.size < MAX_TENANTS * (SANDBOX_SYSTEMS.length + CHANNEL_SANDBOXES.length)) return;
    const oldest = system.sort((a, b) => a[1].usedAt - b[1].usedAt)[0];
    if (!oldest) return;
    this.tenants.delete(oldest[0]);
    void oldest[1].instance.then((i) => i.close()).catch(() => undefined);
  }

  async close(): Promise<void> {
    const all = [...this.tenants.values()];
    this.tenants.clear();
    await Promise.all(all.map((t) => t.instance.then((i) => i.close()).catch(() => undefined)));
  }
}

/**
 * What the outbound-call guard must let through so the engine reaches the sandboxes this server
 * serves itself: exactly their address and port when it is not a public one (127.0.0.1 by default,
 * `localhost` on both loopback families). A public `PUBLIC_URL` passes the guard like any system.
 */
export function sandboxOutboundAllow(sandboxUrl: string): string[] {
  const url = new URL(sandboxUrl);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  // PORT=0 (benches, tests): the address is only known after listening, and no saved connection points at it.
  if (port === "0") return [];
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (host === "localhost") return [`127.0.0.1:${port}`, `[::1]:${port}`];
  if (/^[\d.]+$/.test(host)) return [`${host}:${port}`];
  if (host.includes(":")) return [`[${host}]:${port}`];
  return [];
}
