import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as Q from "../sql";
import { deriveTables } from "./derive-schema";
import { judgeSql } from "./judge";
import { WOLVOX_SCHEMA_SOURCE, WOLVOX_TABLES } from "./schema";

/** A fetched copy of the artifact (the `fetch` tool's mirror), when this machine has one. */
const MIRROR = "/work/.mirror/yunuscan+Wolvox-Ai/repo";

function artifact(): string | undefined {
  if (!existsSync(MIRROR)) return undefined;
  try {
    return execFileSync(
      "git",
      ["-C", MIRROR, "show", `${WOLVOX_SCHEMA_SOURCE.commit}:${WOLVOX_SCHEMA_SOURCE.path}`],
      { encoding: "utf8", maxBuffer: 16 * 1024 * 1024 },
    );
  } catch {
    return undefined;
  }
}

describe("Wolvox judge", () => {
  const md = artifact();
  it.skipIf(!md)("the fixture is exactly what the artifact's dictionary says for its tables", () => {
    const derived = deriveTables(md as string, Object.keys(WOLVOX_TABLES));
    expect(derived).toEqual(
      Object.fromEntries(Object.entries(WOLVOX_TABLES).map(([name, t]) => [name, { name, ...t }])),
    );
  });

  it("accepts the connector's own statements", () => {
    const texts: Array<[string, Record<string, unknown>]> = [
      [Q.productsPage(false), { size: 1, after: 0 }],
      [Q.productsPage(true), { size: 1, after: 0, since: new Date() }],
      [Q.STOCK_OF_RANGE, { after: 0, last: 1 }],
      [Q.pricesPage(true), { size: 1, after: 0, since: new Date() }],
      [Q.cardsBySku(2), { sku0: "A", sku1: "B" }],
    ];
    for (const [text, params] of texts) expect(judgeSql(text, params as never).problems, text).toEqual([]);
    const block = Q.orderBlock(2);
    const params = Object.fromEntries(
      [...block.matchAll(/@([a-z0-9_]+)/g)].map((m) => [m[1] as string, null]),
    );
    expect(judgeSql(block, params)).toEqual({ operation: "write SIPARIS+SIPARISHR", problems: [] });
  });

  it("refuses unknown tables and columns, unqualified names, literals, ledger writes and updates", () => {
    expect(judgeSql("SELECT S.STOK_KODU FROM STOKLAR S").problems).toEqual(
      expect.arrayContaining([
        "table STOKLAR is not in the Wolvox schema fixture",
        "S.STOK_KODU: S is not a table or alias of the statement",
      ]),
    );
    expect(judgeSql("SELECT S.STOK_KODU FROM STOK S").problems).toEqual([
      "column STOK.STOK_KODU is not in the fixture",
    ]);
    expect(judgeSql("SELECT STOKKODU FROM STOK S WHERE S.STOKKODU = 'X'").problems).toEqual([
      "literal 'X': values go as parameters",
      "unqualified name STOKKODU: qualify columns with their table alias",
    ]);
    expect(judgeSql("UPDATE STOK SET AKTIF = 0").problems).toContain(
      "UPDATE of STOK is never sent to Wolvox (only its key counters in GEN_IDT)",
    );
    // The counter table: only GEN_VALUE, only with a WHERE.
    expect(
      judgeSql("EXECUTE BLOCK AS BEGIN UPDATE GEN_IDT G SET G.GEN_NAME = :X WHERE G.BLKODU = :X; END")
        .problems,
    ).toContain("UPDATE GEN_IDT sets only GEN_VALUE");
    const ledger = judgeSql(
      "EXECUTE BLOCK (A BIGINT = @a) AS BEGIN INSERT INTO CARIHR (BLKODU) VALUES (:A); END",
      { a: 1 },
    );
    expect(ledger.problems).toContain("table CARIHR is not in the Wolvox schema fixture");
    const stockMove = judgeSql(
      "EXECUTE BLOCK (A BIGINT = @a) AS BEGIN INSERT INTO STOKHR (BLKODU, TARIHI) VALUES (:A, :A); END",
      { a: 1 },
    );
    expect(stockMove.problems).toContain("INSERT into ledger table STOKHR: Wolvox ledgers are never written");
    expect(stockMove.problems).toContain("STOKHR.TARIHI: BIGINT into TARIHI TIMESTAMP");
  });

  it("refuses values longer than their column, missing NOT NULL columns and unused parameters", () => {
    const v = judgeSql(
      "EXECUTE BLOCK (R VARCHAR(40) = @r, T TIMESTAMP = @t) AS BEGIN INSERT INTO SIPARIS (BLKODU, SIPARIS_NO) VALUES (1, :R); END",
      { r: "x", t: new Date(), extra: 1 },
    );
    expect(v.problems).toEqual([
      "value extra is not used by the statement",
      "INSERT into SIPARIS leaves NOT NULL column TARIHI empty",
      "SIPARIS.SIPARIS_NO: VARCHAR(40) is longer than SIPARIS_NO VARCHAR(30)",
    ]);
  });
});
