import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../db.ts";
import { syncLedger } from "../store/schema.ts";

export type LedgerEntity = "category" | "product" | "variant" | "stock" | "price";
export type LedgerRow = { key: string; externalId: string | null; hash: string | null };

/** A stable hash of what was pushed: same content, same hash, whatever the key order. */
export function contentHash(value: unknown): string {
  return createHash("sha1").update(stableJson(value)).digest("base64url");
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The ledger of one shop connection: bindings (external ids) and the hash last pushed per key. */
export class SyncLedger {
  constructor(
    private readonly db: Executor,
    readonly connectionId: number,
    readonly companyId: number,
  ) {}

  async get(entity: LedgerEntity, keys: string[]): Promise<Map<string, LedgerRow>> {
    const out = new Map<string, LedgerRow>();
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      const rows = await this.db
        .select({ key: syncLedger.key, externalId: syncLedger.externalId, hash: syncLedger.hash })
        .from(syncLedger)
        .where(
          and(
            eq(syncLedger.connectionId, this.connectionId),
            eq(syncLedger.entity, entity),
            // One array parameter, not one per key: cheap to build and to plan.
            sql`${syncLedger.key} = any(${sql.param(chunk)}::text[])`,
          ),
        );
      for (const row of rows) out.set(row.key, row);
    }
    return out;
  }

  async all(entity: LedgerEntity): Promise<LedgerRow[]> {
    return this.db
      .select({ key: syncLedger.key, externalId: syncLedger.externalId, hash: syncLedger.hash })
      .from(syncLedger)
      .where(and(eq(syncLedger.connectionId, this.connectionId), eq(syncLedger.entity, entity)));
  }

  /**
   * Records what was pushed. A binding that already exists keeps its external id unless a new one
   * is given; a unique clash on the external id means "already bound": the caller's work is done.
   */
  async put(
    entity: LedgerEntity,
    rows: Array<{ key: string; externalId?: string | null; hash?: string | null }>,
  ) {
    const pushedAt = new Date().toISOString();
    for (let i = 0; i < rows.length; i += 1000) {
      const chunk = rows.slice(i, i + 1000);
      // Rows travel as three array parameters (not eight parameters per row): building and sending a
      // thousand-row upsert stays cheap.
      await this.db.execute(sql`
        insert into sync_ledger (connection_id, company_id, entity, key, external_id, hash, pushed_at)
        select ${this.connectionId}::integer, ${this.companyId}::integer, ${entity}::text, t.key, t.external_id, t.hash, ${pushedAt}::timestamptz
        from unnest(
          ${sql.param(chunk.map((r) => r.key))}::text[],
          ${sql.param(chunk.map((r) => r.externalId ?? null))}::text[],
          ${sql.param(chunk.map((r) => r.hash ?? null))}::text[]
        ) as t(key, external_id, hash)
        on conflict (connection_id, entity, key) do update set
          external_id = coalesce(excluded.external_id, sync_ledger.external_id),
          hash = coalesce(excluded.hash, sync_ledger.hash),
          pushed_at = excluded.pushed_at`);
    }
  }

  async count(entity: LedgerEntity): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(syncLedger)
      .where(and(eq(syncLedger.connectionId, this.connectionId), eq(syncLedger.entity, entity)));
    return row?.n ?? 0;
  }
}
