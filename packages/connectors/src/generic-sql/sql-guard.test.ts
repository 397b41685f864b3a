/**
 * The read-only decision on a corpus: hostile texts (each a write, a reach-out or a second statement,
 * hidden by the tricks a literal-blind or comment-blind check misses) are refused in both dialects,
 * and real-world SELECTs of the ERPs we serve (Logo, Netsis, Mikro, Nebim V3, Zirve, ETA on SQL Server;
 * Wolvox and the generic systems on Firebird) pass (`sql-guard.corpus.ts`).
 */

import { describe, expect, it } from "vitest";
import type { SqlDialect } from "../sdk/sql";
import { validateSelect } from "./config";
import { checkRead, SqlRefusal } from "./sql-guard";
import { FIREBIRD_REAL, hostile, MSSQL_REAL } from "./sql-guard.corpus";

function refusal(sql: string, dialect: SqlDialect): SqlRefusal | undefined {
  try {
    checkRead(sql, dialect);
    return undefined;
  } catch (e) {
    if (e instanceof SqlRefusal) return e;
    throw e;
  }
}

describe("merchant SQL: read-only by construction", () => {
  for (const dialect of ["mssql", "firebird"] as const) {
    it(`refuses every hostile text (${dialect})`, () => {
      const corpus = hostile(dialect);
      expect(corpus.length).toBeGreaterThanOrEqual(200);
      const passed = corpus.filter((q) => !refusal(q, dialect));
      expect(passed).toEqual([]);
    });

    it(`passes real-world SELECTs of the ERPs we serve (${dialect})`, () => {
      const real = dialect === "mssql" ? MSSQL_REAL : FIREBIRD_REAL;
      const refused = real
        .map((q) => [q, refusal(q, dialect)?.message] as const)
        .filter(([, why]) => why !== undefined);
      expect(refused).toEqual([]);
    });
  }

  it("counts at least 50 real-world SELECTs", () => {
    expect(MSSQL_REAL.length + FIREBIRD_REAL.length).toBeGreaterThanOrEqual(50);
  });

  it("names the part refused, in Turkish", () => {
    const why = (sql: string, dialect: SqlDialect = "mssql") => {
      try {
        validateSelect("products", sql, dialect, ["ref"]);
        return undefined;
      } catch (e) {
        return (e as { merchantMessage?: string }).merchantMessage;
      }
    };
    const cases: Array<[string, SqlDialect, string]> = [
      [
        "SELECT KOD AS sku, '/*' AS name FROM STOK DELETE FROM STOK SELECT '*/' AS x",
        "mssql",
        "Ürün sorgusunda izin verilmeyen ifade: DELETE",
      ],
      [
        "SELECT KOD AS sku, '/*' AS name FROM STOK SELECT '*/' AS x",
        "mssql",
        "Ürün alanına tek bir SQL ifadesi yazın (ikinci ifade: SELECT).",
      ],
      ["EXEC xp_cmdshell 'dir'", "mssql", "Ürün sorgusunda izin verilmeyen ifade: EXEC"],
      [
        "SELECT * FROM OPENQUERY(L, 'DELETE FROM STOK')",
        "mssql",
        "Ürün sorgusunda izin verilmeyen ifade: OPENQUERY",
      ],
      [
        "WITH x AS (UPDATE STOK SET A = 1 RETURNING A) SELECT * FROM x",
        "firebird",
        "Ürün sorgusunda izin verilmeyen ifade: UPDATE",
      ],
      ["SELECT * INTO #t FROM STOK", "mssql", "Ürün sorgusunda izin verilmeyen ifade: INTO"],
      [
        "SELECT * FROM SRV.LOGODB.dbo.LG_001_ITEMS",
        "mssql",
        "Ürün sorgusunda başka sunucuya uzanan ad: SRV.LOGODB.dbo.LG_001_ITEMS",
      ],
      ["SELECT * FROM STOK_SIL(1)", "firebird", "Ürün sorgusunda izin verilmeyen yordam çağrısı: STOK_SIL"],
      [
        "S\u0415LECT 1 FROM T",
        "mssql",
        "Ürün sorgusunda başka alfabeden benzer harflerle yazılmış ad: S\u0415LECT",
      ],
      [
        "SELECT 1 FROM T\u200b",
        "mssql",
        "Ürün sorgusunda izin verilmeyen karakter: U+200B (yalnızca tırnak içindeki metinlerde kullanılabilir).",
      ],
      ["SELECT 'abc FROM T", "mssql", "Ürün sorgusunda kapanmamış '"],
      [
        "SELECT 1 FROM T /* a /* b */ */",
        "mssql",
        "Ürün sorgusunda iç içe yorum: /* … */ (yorum işaretleri yorumun içinde kullanılamaz).",
      ],
      ["UPDATE STOK SET A = 1", "mssql", "Ürün sorgusunda izin verilmeyen ifade: UPDATE"],
    ];
    for (const [sql, dialect, expected] of cases) expect(why(sql, dialect), sql).toBe(expected);
    expect(why("VALUES (1)")).toBe(
      "Ürün sorgusu SELECT ya da yalnızca SELECT içeren WITH ile yazılmalı; izin verilmeyen yer: VALUES",
    );
    // No parser English reaches the merchant.
    expect(why("SELECT FROM WHERE")).toBeUndefined();
  });

  it("lets a read select from the procedure the merchant configured as the order writer", () => {
    expect(refusal("SELECT * FROM WEB_SIPARIS_EKLE(1)", "firebird")?.code).toBe("procedure");
    expect(() =>
      checkRead("SELECT * FROM WEB_SIPARIS_EKLE(1)", "firebird", { procedures: ["WEB_SIPARIS_EKLE"] }),
    ).not.toThrow();
  });
});
