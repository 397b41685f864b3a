import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Executor } from "../db.ts";
import { isUniqueViolation } from "../runs/failure-text.ts";
import { syncCursors, syncLedger } from "../store/schema.ts";
import { uniqueByKey } from "../store/unique-by-key.ts";

/** `listing`: a product sent to a marketplace's review (channel listing), kept while it is reviewed. */
export type LedgerEntity = "category" | "product" | "variant" | "stock" | "price" | "listing";
export type LedgerRow = { key: string; externalId: string | null; hash: string | null };
/** A row not written because another key (`heldBy`) already holds its external record. */
export type LedgerConflict = { key: string; externalId: string; heldBy: string };

/** A stable hash of what was pushed: same content, same hash, whatever the key order. */
export function contentHash(value: unknown): string {
  return createHash("sha1").update(stableJson(value)).digest("base64url");
}

/**
 * JSON with object keys sorted (code-unit order) and undefined members left out. Built by appending
 * to one string, without the entry arrays a map/filter/sort/join chain allocates per object: a first
 * sync hashes every product (issue 34: CPU per record). The text, and so every stored hash, is the same.
 */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) {
    let out = "[";
    // `?? ""`: an element with no JSON (undefined, a function) is empty, as `join` made it.
    for (let i = 0; i < value.length; i++) out += (i > 0 ? "," : "") + (stableJson(value[i]) ?? "");
    return `${out}]`;
  }
  if (value && typeof value === "object") {
    const record = value as Record<string, unknown>;
    // Default sort: UTF-16 code-unit order, as the `<` comparison it replaces.
    const keys = Object.keys(record).sort();
    let out = "{";
    let first = true;
    for (const k of keys) {
      const v = record[k];
      if (v === undefined) continue;
      out += `${first ? "" : ","}${JSON.stringify(k)}:${stableJson(v)}`;
      first = false;
    }
    return `${out}}`;
  }
  return JSON.stringify(value);
}

/**
 * A `text[]` parameter as PostgreSQL's array literal, built with one `join` when no element is null
 * or holds a quote or backslash (SKUs and hashes): the driver's own encoding runs two regular
 * expressions per element, a tenth of a delta sync's CPU at a thousand keys a lookup (issue 34: CPU
 * per record). Anything else goes as the array, encoded by the driver as before. Cast it `::text[]`.
 */
export function textArrayParam(values: Array<string | null>) {
  let plain = true;
  for (const v of values) {
    if (v === null || v.includes('"') || v.includes("\\")) {
      plain = false;
      break;
    }
  }
  if (!plain) return sql.param(values);
  return sql.param(values.length === 0 ? "{}" : `{"${values.join('","')}"}`);
}

/** Rows written by one ledger before it first refreshes the table's planner statistics; then ×4. */
const STATISTICS_FIRST_AT = 1000;

/**
 * The ledger of one shop connection: bindings (external ids) and the hash last pushed per key.
 *
 * A ledger that writes many rows refreshes the table's planner statistics itself, as it passes
 * 1,000, 4,000, 16,000… rows, when they are new to the statistics. Without them (a new database, a new connection, PostgreSQL with
 * autovacuum off, autovacuum's first minute) the planner takes a connection for one row, and each
 * lookup by key or external id scanned every row of the connection: a first sync of 20,000 SKUs
 * cost PostgreSQL 53 s of CPU, against 12 s with statistics.
 */
export class SyncLedger {
  private written = 0;
  private statisticsAt = STATISTICS_FIRST_AT;

  constructor(
    private readonly db: Executor,
    readonly connectionId: number,
    readonly companyId: number,
  ) {}

  async get(entity: LedgerEntity, keys: string[]): Promise<Map<string, LedgerRow>> {
    const out = new Map<string, LedgerRow>();
    for (let i = 0; i < keys.length; i += 1000) {
      const chunk = keys.slice(i, i + 1000);
      // Plain SQL rather than the query builder: its row mapping cost more CPU than the lookup itself
      // on a sync that asks for every key (issue 34: CPU per record). One array parameter, not one
      // per key: cheap to build and to plan.
      const result = await this.db.execute(sql`
        select key, external_id, hash from sync_ledger
        where connection_id = ${this.connectionId}::integer and entity = ${entity}::text
          and key = any(${textArrayParam(chunk)}::text[])`);
      for (const row of result.rows as Array<{
        key: string;
        external_id: string | null;
        hash: string | null;
      }>)
        out.set(row.key, { key: row.key, externalId: row.external_id, hash: row.hash });
    }
    return out;
  }

  /** The keys among `keys` whose row was written at `since` or later. */
  async pushedSince(entity: LedgerEntity, keys: string[], since: Date): Promise<Set<string>> {
    const out = new Set<string>();
    for (let i = 0; i < keys.length; i += 1000) {
      const result = await this.db.execute(sql`
        select key from sync_ledger
        where connection_id = ${this.connectionId}::integer and entity = ${entity}::text
          and key = any(${textArrayParam(keys.slice(i, i + 1000))}::text[])
          and pushed_at >= ${since.toISOString()}::timestamptz`);
      for (const row of result.rows as Array<{ key: string }>) out.add(row.key);
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
   * Records what was pushed, one row per key (the last of a repeated key wins). A binding that
   * already exists keeps its external id unless a new one is given.
   *
   * One external record is bound to one key (the unique index `sync_ledger_external_uq`). A row
   * whose external id another key already holds is not written: it is answered as a conflict, and
   * the binding that came first keeps the record. Within one batch the first key wins. So a
   * conflict costs the caller one record, never the whole statement.
   */
  async put(
    entity: LedgerEntity,
    rows: Array<{ key: string; externalId?: string | null; hash?: string | null }>,
  ): Promise<LedgerConflict[]> {
    const conflicts: LedgerConflict[] = [];
    const holder = new Map<string, string>();
    const unique = uniqueByKey(rows, (r) => r.key).filter((r) => {
      if (!r.externalId) return true;
      const first = holder.get(r.externalId);
      if (first === undefined) {
        holder.set(r.externalId, r.key);
        return true;
      }
      conflicts.push({ key: r.key, externalId: r.externalId, heldBy: first });
      return false;
    });
    const pushedAt = new Date().toISOString();
    for (let i = 0; i < unique.length; i += 1000) {
      const chunk = unique.slice(i, i + 1000);
      for (let attempt = 0; ; attempt++) {
        try {
          conflicts.push(...(await this.putChunk(entity, chunk, pushedAt)));
          break;
        } catch (error) {
          // Another transaction bound the same external record between our check and our insert:
          // the next attempt sees its row and answers the conflict.
          if (attempt >= 2 || !isUniqueViolation(error, "sync_ledger_external_uq")) throw error;
        }
      }
    }
    this.written += unique.length;
    if (this.written >= this.statisticsAt) {
      this.statisticsAt *= 4;
      await this.refreshStatistics();
    }
    return conflicts;
  }

  /**
   * Analyses the table when the planner takes this connection for far fewer rows than this ledger
   * has written: a new table, a new connection (its id is in no statistics, so the planner counts
   * it at one row however large the table is), a first sync. A run that rewrites rows the
   * statistics already count does not.
   */
  private async refreshStatistics() {
    const result = await this.db.execute(
      sql`explain (format json) select 1 from sync_ledger where connection_id = ${this.connectionId}::integer`,
    );
    const cell = Object.values(result.rows[0] ?? {})[0];
    const plan = (typeof cell === "string" ? JSON.parse(cell) : cell) as Array<{
      Plan: { "Plan Rows": number };
    }>;
    const estimate = plan[0]?.Plan["Plan Rows"] ?? 0;
    if (estimate >= this.written / 2) return;
    // SKIP_LOCKED: another run (or autovacuum) analysing the table at the moment does as well.
    await this.db.execute(sql`analyze (skip_locked) sync_ledger`);
  }

  private async putChunk(
    entity: LedgerEntity,
    chunk: Array<{ key: string; externalId?: string | null; hash?: string | null }>,
    pushedAt: string,
  ): Promise<LedgerConflict[]> {
    // Hashes only (stock, prices): no external id to be held by another key, so the plain upsert
    // (the bound external id stays, as coalesce keeps it below) without the `held` join.
    if (chunk.every((r) => !r.externalId)) {
      await this.db.execute(sql`
        insert into sync_ledger (connection_id, company_id, entity, key, external_id, hash, pushed_at)
        select ${this.connectionId}::integer, ${this.companyId}::integer, ${entity}::text, t.key, null, t.hash, ${pushedAt}::timestamptz
        from unnest(
          ${textArrayParam(chunk.map((r) => r.key))}::text[],
          ${textArrayParam(chunk.map((r) => r.hash ?? null))}::text[]
        ) as t(key, hash)
        on conflict (connection_id, entity, key) do update set
          hash = coalesce(excluded.hash, sync_ledger.hash),
          pushed_at = excluded.pushed_at`);
      return [];
    }
    // Rows travel as three array parameters (not eight parameters per row): building and sending a
    // thousand-row upsert stays cheap. `held` finds the rows whose external id another key holds;
    // the insert skips them and the statement answers them.
    const result = await this.db.execute(sql`
      with t as (
        select * from unnest(
          ${textArrayParam(chunk.map((r) => r.key))}::text[],
          ${textArrayParam(chunk.map((r) => r.externalId ?? null))}::text[],
          ${textArrayParam(chunk.map((r) => r.hash ?? null))}::text[]
        ) as t(key, external_id, hash)
      ), held as (
        select t.key, t.external_id, s.key as held_by
        from t join sync_ledger s
          on s.connection_id = ${this.connectionId}::integer and s.entity = ${entity}::text
          and s.external_id = t.external_id and s.key <> t.key
      ), written as (
        insert into sync_ledger (connection_id, company_id, entity, key, external_id, hash, pushed_at)
        select ${this.connectionId}::integer, ${this.companyId}::integer, ${entity}::text, t.key, t.external_id, t.hash, ${pushedAt}::timestamptz
        from t where not exists (select 1 from held where held.key = t.key)
        on conflict (connection_id, entity, key) do update set
          external_id = coalesce(excluded.external_id, sync_ledger.external_id),
          hash = coalesce(excluded.hash, sync_ledger.hash),
          pushed_at = excluded.pushed_at
        returning 1
      )
      select key, external_id, held_by from held`);
    return (result.rows as Array<{ key: string; external_id: string; held_by: string }>).map((r) => ({
      key: r.key,
      externalId: r.external_id,
      heldBy: r.held_by,
    }));
  }

  /** The key that holds an external record, if any. */
  async holderOf(entity: LedgerEntity, externalId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ key: syncLedger.key })
      .from(syncLedger)
      .where(
        and(
          eq(syncLedger.connectionId, this.connectionId),
          eq(syncLedger.entity, entity),
          eq(syncLedger.externalId, externalId),
        ),
      );
    return row?.key;
  }

  async count(entity: LedgerEntity): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(syncLedger)
      .where(and(eq(syncLedger.connectionId, this.connectionId), eq(syncLedger.entity, entity)));
    return row?.n ?? 0;
  }

  /**
   * The ERP's "changed since" mark for a stream, kept beside what was pushed to this shop connection:
   * a delta run reads from it, and it moves only after the writes it covers are recorded.
   */
  async cursor(stream: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ cursor: syncCursors.cursor })
      .from(syncCursors)
      .where(and(eq(syncCursors.companyId, this.companyId), eq(syncCursors.stream, this.streamKey(stream))));
    return row?.cursor;
  }

  async saveCursor(stream: string, cursor: string): Promise<void> {
    await this.db
      .insert(syncCursors)
      .values({ companyId: this.companyId, stream: this.streamKey(stream), cursor })
      .onConflictDoUpdate({
        target: [syncCursors.companyId, syncCursors.stream],
        set: { cursor, updatedAt: new Date() },
      });
  }

  private streamKey(stream: string) {
    return `${stream}@shop${this.connectionId}`;
  }
}
