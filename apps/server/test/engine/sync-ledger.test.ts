/**
 * The sync ledger's own rules (issue 41): the content hash ignores key order, a batch's first key keeps an
 * external record, a repeated key's last row wins, a unique-key race is retried, lookups and the cursor
 * stay inside their connection. Runs on PGlite, and on PostgreSQL when DATABASE_URL is set.
 */
import { createHash } from "node:crypto";
import { contentHash, engineSchema, SyncLedger } from "@ep/engine";
import { eq, type SQL, sql } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/platform/db/database.ts";
import { companies } from "../../src/platform/db/schema.ts";

type Executor = ConstructorParameters<typeof SyncLedger>[0];

let database: Database;
let companyId: number;
let shop: number;
let erp: number;

beforeAll(async () => {
  database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: "memory",
    memoryTemplate: inject("pgliteTemplate"),
  });
  const [company] = await database.db
    .insert(companies)
    .values({ name: "Defter A.Ş.", erpType: 1, ecommerceType: 1 })
    .returning({ id: companies.id });
  companyId = company!.id;
  const rows = await database.db
    .insert(engineSchema.connections)
    .values([
      { companyId, kind: "shop", systemType: 1, credentialsSealed: "-" },
      { companyId, kind: "erp", systemType: 1, credentialsSealed: "-" },
    ])
    .returning({ id: engineSchema.connections.id });
  [shop, erp] = rows.map((r) => r.id) as [number, number];
});
afterAll(async () => {
  for (const id of [companyId, ...cleanup]) {
    await database?.db.delete(engineSchema.connections).where(eq(engineSchema.connections.companyId, id));
    await database?.db.delete(companies).where(eq(companies.id, id));
  }
  await database?.close();
});

let testNo = 0;
/** A ledger on a shop connection of its own per test (rows never meet another test's). */
async function fresh() {
  const [company] = await database.db
    .insert(companies)
    .values({ name: `Defter ${++testNo} A.Ş.`, erpType: 1, ecommerceType: 1 })
    .returning({ id: companies.id });
  const [connection] = await database.db
    .insert(engineSchema.connections)
    .values({ companyId: company!.id, kind: "shop", systemType: 1, credentialsSealed: "-" })
    .returning({ id: engineSchema.connections.id });
  cleanup.push(company!.id);
  const id = connection!.id;
  const at = (db: Executor) => new SyncLedger(db, id, company!.id);
  return { ledger: at(database.db), at, entity: "variant" as const, prefix: `t${testNo}-` };
}
const cleanup: number[] = [];

const dialect = new PgDialect();
/** An executor that shows every statement it runs, and may fail the next `execute`s. */
function watched(failures: unknown[] = []) {
  const statements: string[] = [];
  const selects = { n: 0 };
  const db = database.db;
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === "execute")
        return async (query: SQL) => {
          statements.push(dialect.sqlToQuery(query).sql);
          const failure = failures.shift();
          if (failure) throw failure;
          return target.execute(query);
        };
      if (prop === "select") selects.n++;
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db: proxy as Executor, statements, selects };
}
const uniqueViolation = (constraint: string) =>
  Object.assign(new Error(`duplicate key value violates unique constraint "${constraint}"`), {
    code: "23505",
    constraint,
  });

describe("contentHash", () => {
  it("same content in any key order, at any depth, gives the same hash", () => {
    const a = { sku: "A-1", price: 10.5, tags: ["x", "y"], meta: { b: 2, a: [{ d: 4, c: 3 }], z: null } };
    const b = { meta: { z: null, a: [{ c: 3, d: 4 }], b: 2 }, tags: ["x", "y"], price: 10.5, sku: "A-1" };
    expect(contentHash(a)).toBe(contentHash(b));
    // The exact canonical form: keys sorted by code unit, no spaces, undefined members left out.
    const canonical =
      '{"meta":{"a":[{"c":3,"d":4}],"b":2,"z":null},"price":10.5,"sku":"A-1","tags":["x","y"]}';
    expect(contentHash({ ...b, gone: undefined })).toBe(
      createHash("sha1").update(canonical).digest("base64url"),
    );
    expect(contentHash({ B: 1, a: 2, _: 3 })).toBe(
      createHash("sha1").update('{"B":1,"_":3,"a":2}').digest("base64url"),
    );
  });

  it("many keys (past the sort's small-array path) in any order", () => {
    const keys = Array.from({ length: 100 }, (_, i) => `k${String((i * 37) % 100).padStart(2, "0")}`);
    const forward = Object.fromEntries(keys.map((k) => [k, k.length]));
    const backward = Object.fromEntries([...keys].reverse().map((k) => [k, k.length]));
    const sorted = Object.fromEntries([...keys].sort().map((k) => [k, k.length]));
    expect(contentHash(forward)).toBe(contentHash(sorted));
    expect(contentHash(backward)).toBe(contentHash(sorted));
    expect(contentHash(sorted)).toBe(createHash("sha1").update(JSON.stringify(sorted)).digest("base64url"));
  });

  it("different content, a different hash", () => {
    const hashes = [
      { a: 1 },
      { a: "1" },
      { a: 2 },
      { b: 1 },
      { a: null },
      {},
      [],
      [1, 2],
      [2, 1],
      [[1], 2],
      "a",
      1,
      null,
      { a: { b: 1 } },
      { a: [{ b: 1 }] },
    ].map(contentHash);
    expect(new Set(hashes).size).toBe(hashes.length);
  });
});

describe("put", () => {
  it("within one batch the first key wins an external record; a repeated key's last row wins", async () => {
    const { ledger, entity, prefix: p } = await fresh();
    const conflicts = await ledger.put(entity, [
      { key: `${p}A`, externalId: "x-1", hash: "h1" },
      { key: `${p}B`, externalId: "x-1", hash: "h2" },
      { key: `${p}C`, externalId: "x-2", hash: "old" },
      { key: `${p}C`, externalId: "x-3", hash: "new" },
      { key: `${p}D`, hash: "no binding" },
      { key: `${p}E`, externalId: null, hash: "no binding either" },
    ]);
    expect(conflicts).toEqual([{ key: `${p}B`, externalId: "x-1", heldBy: `${p}A` }]);
    const rows = await ledger.all(entity);
    expect(rows.sort((x, y) => x.key.localeCompare(y.key))).toEqual([
      { key: `${p}A`, externalId: "x-1", hash: "h1" },
      { key: `${p}C`, externalId: "x-3", hash: "new" },
      { key: `${p}D`, externalId: null, hash: "no binding" },
      { key: `${p}E`, externalId: null, hash: "no binding either" },
    ]);
    expect(await ledger.count(entity)).toBe(4);
    expect(await ledger.holderOf(entity, "x-1")).toBe(`${p}A`);
    expect(await ledger.holderOf(entity, "x-2")).toBeUndefined();
  });

  it("a record bound earlier stays with its key; the key keeps its binding unless a new one is given", async () => {
    const { ledger, entity, prefix: p } = await fresh();
    await ledger.put(entity, [{ key: `${p}A`, externalId: "x-1", hash: "h1" }]);
    // The same key again with the same record is no conflict; another key asking for it is one.
    expect(
      await ledger.put(entity, [
        { key: `${p}A`, externalId: "x-1", hash: "h2" },
        { key: `${p}B`, externalId: "x-1", hash: "hb" },
      ]),
    ).toEqual([{ key: `${p}B`, externalId: "x-1", heldBy: `${p}A` }]);
    expect(await ledger.get(entity, [`${p}B`])).toEqual(new Map());
    // No new external id, no hash: what was recorded stays.
    await ledger.put(entity, [{ key: `${p}A` }]);
    await ledger.put(entity, [{ key: `${p}A`, externalId: null, hash: null }]);
    expect((await ledger.get(entity, [`${p}A`])).get(`${p}A`)).toEqual({
      key: `${p}A`,
      externalId: "x-1",
      hash: "h2",
    });
    await ledger.put(entity, [{ key: `${p}A`, externalId: "x-9" }]);
    expect((await ledger.get(entity, [`${p}A`])).get(`${p}A`)).toEqual({
      key: `${p}A`,
      externalId: "x-9",
      hash: "h2",
    });
  });

  it("records the time of the push", async () => {
    const { ledger, entity, prefix: p } = await fresh();
    const before = Date.now();
    await ledger.put(entity, [{ key: `${p}A`, hash: "h" }]);
    const [row] = await database.db
      .select({ pushedAt: engineSchema.syncLedger.pushedAt })
      .from(engineSchema.syncLedger)
      .where(sql`${engineSchema.syncLedger.key} = ${`${p}A`}`);
    expect(new Date(row!.pushedAt as unknown as string).getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(row!.pushedAt as unknown as string).getTime()).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("retries after a unique-key race, then answers the record another key took meanwhile", async () => {
    const { ledger: other, at, entity, prefix: p } = await fresh();
    const w = watched([uniqueViolation("sync_ledger_external_uq")]);
    const ledger = at(w.db);
    // The other transaction commits its binding between our check and our insert.
    await other.put(entity, [{ key: `${p}OTHER`, externalId: "x-1", hash: "h" }]);
    expect(await ledger.put(entity, [{ key: `${p}A`, externalId: "x-1", hash: "h" }])).toEqual([
      { key: `${p}A`, externalId: "x-1", heldBy: `${p}OTHER` },
    ]);
    expect(w.statements.filter((s) => s.includes("insert into sync_ledger"))).toHaveLength(2);
  });

  it("gives up after three tries, and never retries another error", async () => {
    const race = () => uniqueViolation("sync_ledger_external_uq");
    const { ledger, at, entity, prefix: p } = await fresh();
    const thrice = watched([race(), race(), race()]);
    await expect(
      at(thrice.db).put(entity, [{ key: `${p}A`, externalId: "x", hash: "h" }]),
    ).rejects.toMatchObject({ code: "23505" });
    expect(thrice.statements).toHaveLength(3);
    const twice = watched([race(), race()]);
    expect(await at(twice.db).put(entity, [{ key: `${p}B`, externalId: "y", hash: "h" }])).toEqual([]);
    expect(twice.statements).toHaveLength(3);
    for (const error of [uniqueViolation("sync_ledger_pkey"), new Error("connection lost")]) {
      const once = watched([error]);
      await expect(at(once.db).put(entity, [{ key: `${p}C`, externalId: "z", hash: "h" }])).rejects.toBe(
        error,
      );
      expect(once.statements).toHaveLength(1);
    }
    expect((await ledger.all(entity)).map((r) => r.key)).toEqual([`${p}B`]);
  });

  it("keys and hashes with quotes, backslashes, commas, braces, spaces and NULL read back as written", async () => {
    const { at, entity, prefix: p } = await fresh();
    const ledger = at(database.db);
    const odd = ['a"b', "c\\d", "e,f", "{g}", " h ", "NULL", "ı ş ğ", "", "x@y"].map((k) => `${p}${k}`);
    // Hash-only rows (the plain upsert), then rows with external ids (the statement with `held`).
    // Each kind in a statement of its own: one made with a join, one encoded by the driver.
    const quoted = (k: string) => /["\\]/.test(k);
    for (const part of [odd.filter((k) => !quoted(k)), odd.filter(quoted)])
      await ledger.put(
        entity,
        part.map((key) => ({ key, hash: `${key}#` })),
      );
    const plain = [`${p}plain1`, `${p}plain2`];
    await ledger.put(
      entity,
      plain.map((key) => ({ key, hash: key })),
    );
    await ledger.put(
      entity,
      odd.map((key, i) => ({ key, externalId: `e"${i}\\`, hash: null })),
    );
    const found = await ledger.get(entity, [...odd, ...plain, `${p}absent`]);
    expect(found.size).toBe(odd.length + plain.length);
    for (const [i, key] of odd.entries())
      expect(found.get(key)).toEqual({ key, externalId: `e"${i}\\`, hash: `${key}#` });
    for (const key of plain) expect(found.get(key)).toEqual({ key, externalId: null, hash: key });
    expect((await ledger.get(entity, plain)).size).toBe(2);
    const unquoted = odd.filter((k) => !quoted(k));
    expect([...(await ledger.get(entity, unquoted)).keys()].sort()).toEqual([...unquoted].sort());
  });

  it("writes and reads in statements of a thousand rows", async () => {
    const { at, entity, prefix: p } = await fresh();
    const w = watched();
    const ledger = at(w.db);
    const keys = Array.from({ length: 2000 }, (_, i) => `${p}${i}`);
    expect(
      await ledger.put(
        entity,
        keys.map((key, i) => ({ key, externalId: `e${p}${i}`, hash: `h${i}` })),
      ),
    ).toEqual([]);
    expect(w.statements.filter((s) => s.includes("insert into sync_ledger"))).toHaveLength(2);
    w.selects.n = 0;
    const before = w.statements.length;
    const found = await ledger.get(entity, keys);
    const reads = w.statements.slice(before).filter((s) => /^\s*select\b/.test(s));
    expect(w.selects.n + reads.length).toBe(2);
    expect(found.size).toBe(2000);
    expect(found.get(`${p}999`)).toEqual({ key: `${p}999`, externalId: `e${p}999`, hash: "h999" });
    expect(found.get(`${p}1000`)).toEqual({ key: `${p}1000`, externalId: `e${p}1000`, hash: "h1000" });
    expect(found.get(`${p}1999`)).toEqual({ key: `${p}1999`, externalId: `e${p}1999`, hash: "h1999" });
    expect((await ledger.get(entity, [`${p}5`, `${p}missing`])).size).toBe(1);
    expect(await ledger.count(entity)).toBe(2000);
    await ledger.put(entity, [
      ...keys.slice(0, 1000).map((key) => ({ key, hash: "again" })),
      { key: `${p}new`, hash: "n" },
    ]);
    expect(w.statements.filter((s) => s.includes("insert into sync_ledger"))).toHaveLength(4);
    expect((await ledger.get(entity, [`${p}0`])).get(`${p}0`)?.hash).toBe("again");
    expect((await ledger.get(entity, [`${p}new`])).get(`${p}new`)?.hash).toBe("n");
  });

  it("refreshes the planner statistics as it passes 1,000 then 4,000 rows written, when they lack them", async () => {
    const { at, entity, prefix: p } = await fresh();
    const w = watched();
    const ledger = at(w.db);
    const batch = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({ key: `${p}${from + i}`, hash: "h" }));
    const explains = () => w.statements.filter((s) => s.startsWith("explain")).length;
    await ledger.put(entity, batch(0, 999));
    expect(explains()).toBe(0);
    await ledger.put(entity, batch(999, 1));
    expect(explains()).toBe(1);
    // A new connection is in no statistics: the planner takes it for far fewer rows, so it analyses.
    expect(w.statements.filter((s) => s === "analyze (skip_locked) sync_ledger")).toHaveLength(1);
    expect(w.statements.find((s) => s.startsWith("explain"))).toBe(
      "explain (format json) select 1 from sync_ledger where connection_id = $1::integer",
    );
    await ledger.put(entity, batch(1000, 2999));
    expect(explains()).toBe(1);
    await ledger.put(entity, batch(3999, 1));
    expect(explains()).toBe(2);
  });
});

describe("put, further", () => {
  it("a conflict in a batch of more than a thousand rows is answered once", async () => {
    const { ledger, entity, prefix: p } = await fresh();
    await ledger.put(entity, [{ key: `${p}holder`, externalId: "x-held", hash: "h" }]);
    const rows = Array.from({ length: 1001 }, (_, i) => ({
      key: `${p}${i}`,
      externalId: `x-${i}`,
      hash: "h",
    }));
    rows[1000] = { key: `${p}1000`, externalId: "x-held", hash: "h" };
    expect(await ledger.put(entity, rows)).toEqual([
      { key: `${p}1000`, externalId: "x-held", heldBy: `${p}holder` },
    ]);
  });

  it("a run that rewrites rows the statistics already count does not analyse again", async () => {
    const { at, entity, prefix: p } = await fresh();
    const rows = Array.from({ length: 1000 }, (_, i) => ({ key: `${p}${i}`, hash: "h" }));
    const first = watched();
    await at(first.db).put(entity, rows);
    expect(first.statements.filter((s) => s.startsWith("analyze"))).toHaveLength(1);
    const again = watched();
    await at(again.db).put(entity, rows);
    expect(again.statements.filter((s) => s.startsWith("explain"))).toHaveLength(1);
    expect(again.statements.filter((s) => s.startsWith("analyze"))).toHaveLength(0);
  });
});

describe("scope", () => {
  it("lookups, counts and holders stay inside their connection and entity", async () => {
    const { ledger, entity, prefix: p } = await fresh();
    const otherConnection = new SyncLedger(database.db, erp, companyId);
    await otherConnection.put(entity, [{ key: `${p}X`, hash: "h" }]);
    await ledger.put(entity, [{ key: `${p}A`, externalId: "x-1", hash: "h" }]);
    await otherConnection.put(entity, [{ key: `${p}B`, externalId: "x-1", hash: "h" }]);
    await ledger.put("price", [{ key: `${p}C`, externalId: "x-1", hash: "h" }]);
    expect((await ledger.all(entity)).map((r) => r.key)).toEqual([`${p}A`]);
    expect([...(await otherConnection.get(entity, [`${p}A`, `${p}B`])).keys()]).toEqual([`${p}B`]);
    expect(await otherConnection.holderOf(entity, "x-1")).toBe(`${p}B`);
    expect(await otherConnection.count(entity)).toBe(2);
    expect(await ledger.holderOf("price", "x-1")).toBe(`${p}C`);
  });

  it("a stream's cursor belongs to its shop connection and moves on", async () => {
    const ledger = new SyncLedger(database.db, shop, companyId);
    const otherConnection = new SyncLedger(database.db, erp, companyId);
    expect(await ledger.cursor("stock")).toBeUndefined();
    await ledger.saveCursor("stock", "2026-11-01T00:00:00Z");
    await ledger.saveCursor("stock", "2026-11-02T00:00:00Z");
    expect(await ledger.cursor("stock")).toBe("2026-11-02T00:00:00Z");
    expect(await otherConnection.cursor("stock")).toBeUndefined();
    expect(await ledger.cursor("price")).toBeUndefined();
    const [row] = await database.db
      .select()
      .from(engineSchema.syncCursors)
      .where(eq(engineSchema.syncCursors.companyId, companyId));
    expect(row?.stream).toBe(`stock@shop${shop}`);
  });
});
