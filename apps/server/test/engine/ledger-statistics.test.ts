/**
 * The ledger keeps its lookups index-bound during a first sync (issue 13, item 6). A new database
 * has no planner statistics for the ledger (and PostgreSQL with autovacuum off never gets them):
 * the planner took a connection for one row, and each lookup by key or external id read every row
 * of the connection. A first sync of 20,000 SKUs then cost PostgreSQL 53 s of CPU instead of 12 s.
 */
import { SyncLedger } from "@ep/engine";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, expect, it } from "vitest";
import { findConnection } from "../../src/modules/connections/repository.ts";
import { startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;
let shopConnectionId = 0;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: 41, erp: { productCount: 5 }, shop: { productCount: 5 } });
  shopConnectionId = (await findConnection(t.ctx.database.db, c.companyId, "shop"))!.id;
}, 60_000);
afterAll(async () => {
  await c?.close();
  await t?.close();
});

type Executor = ConstructorParameters<typeof SyncLedger>[0];

/** Ledger rows and index entries this transaction has read so far (PostgreSQL's own counters). */
async function ledgerRowsRead(tx: Executor): Promise<number> {
  const result = await tx.execute(sql`
    select (pg_stat_get_xact_tuples_returned('sync_ledger'::regclass)
      + coalesce((select sum(pg_stat_get_xact_tuples_returned(indexrelid)) from pg_index
                  where indrelid = 'sync_ledger'::regclass), 0))::int as n`);
  return Number((result.rows[0] as { n: number }).n);
}

/** A first sync: the variants of 5,000 cards bound as they are created, a few at a time. */
async function firstSync(connectionId: number, companyId: number) {
  const ledger = new SyncLedger(t.ctx.database.db, connectionId, companyId);
  for (let i = 0; i < 5000; i += 25) {
    await ledger.put(
      "variant",
      Array.from({ length: 25 }, (_, j) => ({ key: `SKU-${i + j}`, externalId: `v-${i + j}`, hash: "h" })),
    );
  }
}

/** Rows read to bind one new SKU and to look up three bound ones. */
async function lookups(connectionId: number, companyId: number): Promise<number> {
  let read = 0;
  await t.ctx.database.db.transaction(async (tx) => {
    const probe = new SyncLedger(tx, connectionId, companyId);
    const before = await ledgerRowsRead(tx);
    // A new binding (checked against the external ids held) and a lookup of three keys.
    expect(await probe.put("variant", [{ key: "SKU-NEW", externalId: "v-new", hash: "h" }])).toEqual([]);
    const found = await probe.get("variant", ["SKU-7", "SKU-2500", "SKU-4999"]);
    read = (await ledgerRowsRead(tx)) - before;
    expect([...found.values()].map((r) => r.externalId).sort()).toEqual(["v-2500", "v-4999", "v-7"]);
  });
  return read;
}

it("finds a binding among 5,000 of a first sync by its index, not by reading the connection", async () => {
  await firstSync(shopConnectionId, c.companyId);
  // Index probes: a handful of entries. Reading the connection would be over 5,000.
  expect(await lookups(shopConnectionId, c.companyId)).toBeLessThan(50);
});

it("does so for a company that joins a ledger the statistics already describe", async () => {
  // The statistics now know the first connection; a new one's id is in none of them.
  const other = await connectedCompany(t, { seed: 42, erp: { productCount: 5 }, shop: { productCount: 5 } });
  try {
    const otherShop = (await findConnection(t.ctx.database.db, other.companyId, "shop"))!.id;
    await firstSync(otherShop, other.companyId);
    expect(await lookups(otherShop, other.companyId)).toBeLessThan(50);
  } finally {
    await other.close();
  }
});
