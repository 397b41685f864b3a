/**
 * The Wolvox emulator is a real Firebird database (the local Firebird 3 server; CI installs Debian's
 * firebird3.0-server) created from the judge's schema fixture — every table with the columns and types
 * of the real Wolvox 9 dictionary — plus the two STOK_FIYAT triggers whose source that database shows
 * (FIYAT_DEG_TARIHI set on insert and on a price change), seeded with the kit's Turkish catalogue.
 * The engine refuses what the real one refuses (unknown columns, NOT NULL, primary keys, lengths).
 *
 * Faults: a lock conflict (Firebird's own deadlock / update-conflict error, gdscode 335544336) or a
 * connection dropped after the statement ran, on the next N writes of the in-process transport; and
 * slow writes inside the database (a trigger on SIPARIS), which also slows writes an agent process sends.
 * Test-only tables are prefixed EP_ and are not part of the fixture.
 */

import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Firebird from "node-firebird";
import { createFirebirdExecutor, type FirebirdExecutor } from "../../../../../apps/agent/src/sql/firebird";
import type { SqlParams, SqlQuery, SqlQueryOptions, SqlResult, SqlTransport } from "../../sdk/sql";
import { generateCatalog } from "../../testing/catalog";
import { firebirdSysdbaPassword } from "../../testing/firebird";
import { type FixtureTable, TABLE_COUNTERS, WOLVOX_TABLES } from "../judge/schema";

export interface WolvoxDatabaseOptions {
  seed?: number;
  /** Stock cards to seed (the IKAS emulator of the same seed lists the same SKUs). */
  products?: number;
  host?: string;
  port?: number;
}

export type WolvoxFault = "lock" | "dropAfterWrite" | "timeoutAfterWrite";

export interface RecordedStatement {
  text: string;
  params?: SqlParams;
}

export interface WolvoxDatabase {
  /** The spelled-out target (what `entegrasyon-agent db add` stores). */
  target: {
    dialect: "firebird";
    host: string;
    port: number;
    database: string;
    user: string;
    password: string;
  };
  /** A direct transport (the agent's own executor) that records every statement and injects faults. */
  transport: SqlTransport;
  /** Every statement sent through `transport`. */
  statements: RecordedStatement[];
  /** Queue faults for the next writes (EXECUTE BLOCK statements) through `transport`. */
  failNextWrites(fault: WolvoxFault, count?: number): void;
  /** Makes every SIPARIS insert burn `loops` iterations inside the database (0 = off). */
  setSlowWrites(loops: number): Promise<void>;
  /** Runs a statement outside the recorder (test set-up and checks). */
  query(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Our order number → the SIPARIS documents (BLKODU) holding it. */
  ordersByRef(): Promise<Map<string, Set<string>>>;
  /** GEN_IDT counter name → its value (SIPARIS_GEN, SIPARISHR_GEN …). */
  counters(): Promise<Record<string, number>>;
  /**
   * What Wolvox itself does for its next received order: a key from its counter (`SP_GEN_ID`), a SIPARIS
   * row and one line at the keys it got, in one transaction. Fails with Firebird's own primary-key
   * violation when someone wrote at those keys without advancing the counter.
   */
  insertOwnOrder(orderNo: string): Promise<{ id: number; lineId: number }>;
  close(): Promise<void>;
}

/** `CREATE TABLE` of a fixture table, as in the real database (types, NOT NULL, defaults, primary key). */
export function createTableDdl(name: string, table: FixtureTable): string {
  const cols = table.columns.map((c) =>
    // A VARCHAR listed without a length (CARI.ADI_SOYADI) is a computed column in the real database
    // (inferred from the missing length and its name); here it is computed from ADI and SOYADI.
    c.type === "VARCHAR"
      ? `${c.name} COMPUTED BY (TRIM(COALESCE(ADI, '') || ' ' || COALESCE(SOYADI, '')))`
      : `${c.name} ${c.type}${c.default ? ` ${c.default}` : ""}${c.notNull ? " NOT NULL" : ""}`,
  );
  if (table.primaryKey.length)
    cols.push(`CONSTRAINT PK_${name} PRIMARY KEY (${table.primaryKey.join(", ")})`);
  return `CREATE TABLE ${name} (${cols.join(", ")})`;
}

/** Behaviour of the real STOK_FIYAT_INSERT and STOK_FIYATUPDATE triggers (05-generator-ve-trigger-envanteri.md). */
const TRIGGERS = [
  `CREATE TRIGGER STOK_FIYAT_INSERT FOR STOK_FIYAT BEFORE INSERT AS
BEGIN
  IF (NEW.FIYAT_DEG_TARIHI IS NULL) THEN NEW.FIYAT_DEG_TARIHI = CURRENT_TIMESTAMP;
END`,
  `CREATE TRIGGER STOK_FIYATUPDATE FOR STOK_FIYAT BEFORE UPDATE AS
BEGIN
  IF (NEW.FIYATI <> OLD.FIYATI) THEN NEW.FIYAT_DEG_TARIHI = CURRENT_TIMESTAMP;
END`,
  // Wolvox numbers GEN_IDT rows from this generator (05-generator-ve-trigger-envanteri.md lists it).
  "CREATE SEQUENCE GEN_IDT_GEN",
  // Wolvox's key allocation, SP_GEN_ID(GEN_NAME, INCREMENT, DONGU) → GEN_VALUE: its signature is in the
  // inventory, its source was unreadable there. Body inferred: advance the named GEN_IDT row (creating
  // it when missing) and answer the new value; DONGU's meaning is unknown and ignored.
  `CREATE PROCEDURE SP_GEN_ID (GEN_NAME VARCHAR(32), INCREMENT INTEGER, DONGU SMALLINT = 0)
RETURNS (GEN_VALUE BIGINT) AS
BEGIN
  UPDATE GEN_IDT G SET G.GEN_VALUE = COALESCE(G.GEN_VALUE, 0) + :INCREMENT WHERE G.GEN_NAME = :GEN_NAME
    RETURNING G.GEN_VALUE INTO :GEN_VALUE;
  IF (ROW_COUNT = 0) THEN
  BEGIN
    GEN_VALUE = :INCREMENT;
    INSERT INTO GEN_IDT (BLKODU, GEN_NAME, GEN_VALUE) VALUES (GEN_ID(GEN_IDT_GEN, 1), :GEN_NAME, :GEN_VALUE);
  END
  SUSPEND;
END`,
  "CREATE TABLE EP_EMULATOR_FAULTS (SLOW_LOOPS INTEGER)",
  `CREATE TRIGGER EP_SLOW_SIPARIS FOR SIPARIS BEFORE INSERT AS
DECLARE VARIABLE N INTEGER;
DECLARE VARIABLE I INTEGER = 0;
BEGIN
  SELECT COALESCE(MAX(F.SLOW_LOOPS), 0) FROM EP_EMULATOR_FAULTS F INTO :N;
  WHILE (I < N) DO I = I + 1;
END`,
];

const WAREHOUSES = ["MERKEZ", "SUBE1"];

export async function createWolvoxDatabase(options: WolvoxDatabaseOptions = {}): Promise<WolvoxDatabase> {
  const password = firebirdSysdbaPassword();
  if (!password) throw new Error("no local Firebird server (SYSDBA password not found)");
  const dir = mkdtempSync(join(tmpdir(), "ep-wolvox-"));
  // The Firebird server runs as its own user: it creates the database file in this directory.
  chmodSync(dir, 0o777);
  const target = {
    dialect: "firebird" as const,
    host: options.host ?? "127.0.0.1",
    port: options.port ?? 3050,
    database: join(dir, "WOLVOX.FDB"),
    user: "SYSDBA",
    password,
  };
  const db = await Firebird.attachOrCreateAsync({ ...target, encoding: "UTF8" });
  const run = (sql: string, values: unknown[] = []) =>
    db.queryAsync(sql, values as never[]) as Promise<unknown>;
  try {
    await db.withTransaction(async (tx) => {
      for (const [name, table] of Object.entries(WOLVOX_TABLES))
        await tx.queryAsync(createTableDdl(name, table));
    });
    for (const ddl of TRIGGERS) await run(ddl);
    await run("INSERT INTO EP_EMULATOR_FAULTS (SLOW_LOOPS) VALUES (0)");
    // Counters of a database whose keys were all handed out by Wolvox: equal to MAX (no orders yet).
    for (const name of Object.values(TABLE_COUNTERS))
      await run("INSERT INTO GEN_IDT (BLKODU, GEN_NAME, GEN_VALUE) VALUES (GEN_ID(GEN_IDT_GEN, 1), ?, 0)", [
        name,
      ]);
    // One transaction for the whole seed: a commit per row would wait on the disk for each.
    await db.withTransaction((tx) =>
      seed(
        (sql, values = []) => tx.queryAsync(sql, values as never[]) as Promise<unknown>,
        options.seed ?? 7,
        options.products ?? 50,
      ),
    );
  } finally {
    await db.detachAsync();
  }

  const executor: FirebirdExecutor = createFirebirdExecutor(target);
  const statements: RecordedStatement[] = [];
  const faults: WolvoxFault[] = [];
  const transport: SqlTransport = {
    dialect: "firebird",
    async query(q: SqlQuery, o?: SqlQueryOptions): Promise<SqlResult> {
      statements.push({ text: q.text, params: q.params });
      const write = /^\s*EXECUTE\s+BLOCK/i.test(q.text);
      const fault = write ? faults.shift() : undefined;
      if (fault === "lock")
        throw Object.assign(
          new Error(
            "deadlock\nupdate conflicts with concurrent update\nconcurrent transaction number is 1234",
          ),
          { gdscode: 335544336 },
        );
      const res = await executor.query(q, o);
      if (fault === "dropAfterWrite") throw Object.assign(new Error("socket closed"), { code: "ECONNRESET" });
      if (fault === "timeoutAfterWrite")
        throw Object.assign(new Error("Firebird query timed out"), { code: "ETIMEDOUT" });
      return res;
    },
  };
  const query = async (text: string, params: unknown[] = []) => {
    const conn = await Firebird.attachAsync({ ...target, encoding: "UTF8" });
    try {
      const rows = (await conn.queryAsync(text, params as never[])) as unknown;
      return (Array.isArray(rows) ? rows : rows ? [rows] : []) as Record<string, unknown>[];
    } finally {
      await conn.detachAsync();
    }
  };
  return {
    target,
    transport,
    statements,
    failNextWrites(fault, count = 1) {
      for (let i = 0; i < count; i++) faults.push(fault);
    },
    async setSlowWrites(loops) {
      await query("UPDATE EP_EMULATOR_FAULTS SET SLOW_LOOPS = ?", [loops]);
    },
    query,
    async ordersByRef() {
      const rows = await query("SELECT SIPARIS_NO, BLKODU FROM SIPARIS");
      const out = new Map<string, Set<string>>();
      for (const r of rows) {
        const ref = String(r.SIPARIS_NO).trim();
        const docs = out.get(ref) ?? new Set<string>();
        docs.add(String(r.BLKODU));
        out.set(ref, docs);
      }
      return out;
    },
    async counters() {
      const rows = await query("SELECT GEN_NAME, GEN_VALUE FROM GEN_IDT");
      return Object.fromEntries(rows.map((r) => [String(r.GEN_NAME).trim(), Number(r.GEN_VALUE)]));
    },
    async insertOwnOrder(orderNo) {
      const [row] = await query(
        `EXECUTE BLOCK (REF VARCHAR(30) = ?, GS VARCHAR(32) = ?, GH VARCHAR(32) = ?)
RETURNS (ID BIGINT, HR BIGINT) AS
BEGIN
  SELECT P.GEN_VALUE FROM SP_GEN_ID(:GS, 1) P INTO :ID;
  SELECT P.GEN_VALUE FROM SP_GEN_ID(:GH, 1) P INTO :HR;
  INSERT INTO SIPARIS (BLKODU, SIPARIS_TURU, SIPARIS_DURUMU, SIPARIS_NO, TARIHI, SILINDI)
    VALUES (:ID, 1, 1, :REF, CURRENT_TIMESTAMP, 0);
  INSERT INTO SIPARISHR (BLKODU, BLMASKODU, MIKTARI, SIRA_NO) VALUES (:HR, :ID, 1, 1);
  SUSPEND;
END`,
        [orderNo, TABLE_COUNTERS.SIPARIS, TABLE_COUNTERS.SIPARISHR],
      );
      return { id: Number(row?.ID), lineId: Number(row?.HR) };
    },
    async close() {
      await executor.close().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Run = (sql: string, values?: unknown[]) => Promise<unknown>;

function insert(run: Run, table: string, row: Record<string, unknown>) {
  const cols = Object.keys(row);
  return run(
    `INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`,
    Object.values(row),
  );
}

/** The kit's catalogue as Wolvox rows: cards, warehouses, movements, prices, barcodes, groups, one cari. */
async function seed(run: Run, seedValue: number, count: number) {
  const items = generateCatalog({ seed: seedValue, count });
  let depo = 0;
  for (const name of WAREHOUSES) await insert(run, "DEPO", { BLKODU: ++depo, DEPO_ADI: name, AKTIF: 1 });
  let grup = 0;
  const groups = new Set<string>();
  for (const it of items)
    if (!groups.has(it.categoryRoot)) {
      groups.add(it.categoryRoot);
      await insert(run, "GRUP", { BLKODU: ++grup, GRUP_ADI: it.categoryRoot.slice(0, 35), MODUL: "STOK" });
    }
  await insert(run, "STOK_FIYAT_TANIM", { BLKODU: 1, TANIMI: "Perakende", ALIS_SATIS: 2, FIYAT_NO: 1 });
  await insert(run, "STOK_FIYAT_TANIM", { BLKODU: 2, TANIMI: "Toptan", ALIS_SATIS: 2, FIYAT_NO: 2 });
  await insert(run, "STOK_FIYAT_TANIM", { BLKODU: 3, TANIMI: "Alış", ALIS_SATIS: 1, FIYAT_NO: 1 });
  await insert(run, "CARI", { BLKODU: 1, CARIKODU: "WEB-001", TICARI_UNVANI: "E-Ticaret Müşterileri" });
  let hr = 0;
  let fiyat = 0;
  let barkod = 0;
  for (const [i, it] of items.entries()) {
    const key = i + 1;
    const changed = new Date(it.updatedAt);
    await insert(run, "STOK", {
      BLKODU: key,
      STOKKODU: it.sku,
      STOK_ADI: it.name.slice(0, 250),
      BARKODU: it.barcode,
      BIRIMI: it.unit,
      KDV_ORANI: it.vatRate,
      GRUBU: it.categoryRoot.slice(0, 35),
      ARA_GRUBU: it.categoryChild.slice(0, 35),
      MARKASI: it.brand.slice(0, 50),
      AKTIF: 1,
      WEBDE_GORUNSUN: 1,
      ANA_STOKKODU: it.modelCode,
      KAYIT_TARIHI: changed,
      DEGISTIRME_TARIHI: changed,
    });
    const moves: Array<[string, number, number, number]> = [
      // [depot, TUTAR_TURU, qty, SILINDI]: opening stock in, some sold out, a deleted movement ignored.
      ["MERKEZ", 1, it.stock1 + 3, 0],
      ["MERKEZ", 0, 3, 0],
      ["MERKEZ", 0, 1000, 1],
    ];
    if (it.stock2 > 0) moves.push(["SUBE1", 1, it.stock2, 0]);
    for (const [depot, turu, qty, deleted] of moves)
      await insert(run, "STOKHR", {
        BLKODU: ++hr,
        BLSTKODU: key,
        TUTAR_TURU: turu,
        TARIHI: changed,
        MIKTARI: qty,
        DEPO_ADI: depot,
        SILINDI: deleted,
        KAYIT_TARIHI: changed,
      });
    for (const [no, price, side] of [
      [1, it.retailPrice, 2],
      [2, it.wholesalePrice, 2],
      [1, Math.round(it.wholesalePrice * 70) / 100, 1],
    ] as const)
      await insert(run, "STOK_FIYAT", {
        BLKODU: ++fiyat,
        BLSTKODU: key,
        TANIMI: side === 2 ? (no === 1 ? "Perakende" : "Toptan") : "Alış",
        HESAP: "TL",
        FIYATI: price,
        ALIS_SATIS: side,
        FIYAT_NO: no,
        FIYAT_DEG_TARIHI: changed,
      });
    if (i % 5 === 0)
      await insert(run, "STOK_BARKOD", {
        BLKODU: ++barkod,
        BLSTKODU: key,
        BARKODU: `2${it.barcode.slice(1)}`,
        BIRIMI: "Koli",
      });
  }
}
