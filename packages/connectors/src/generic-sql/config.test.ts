import { describe, expect, it } from "vitest";
import {
  type GenericSqlConfig,
  keysetQuery,
  parseGenericSqlConfig,
  validateOrderWrite,
  validateSelect,
} from "./config";

function reason(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (e) {
    return (e as { merchantMessage?: string }).merchantMessage;
  }
}

describe("generic SQL configuration checks", () => {
  it("accepts one SELECT, in either dialect", () => {
    expect(
      reason(() =>
        validateSelect("products", "SELECT STK_KOD, STK_AD FROM STOK WHERE PASIF = 0", "firebird"),
      ),
    ).toBeUndefined();
    expect(
      reason(() => validateSelect("products", "SELECT TOP 10 sto_kod FROM STOKLAR;", "mssql")),
    ).toBeUndefined();
  });

  it("refuses anything that is not one SELECT", () => {
    expect(reason(() => validateSelect("stock", "DELETE FROM STOK", "firebird"))).toBe(
      "Stok sorgusunda izin verilmeyen ifade: DELETE",
    );
    expect(reason(() => validateSelect("stock", "UPDATE STOK SET A = 1", "mssql"))).toBe(
      "Stok sorgusunda izin verilmeyen ifade: UPDATE",
    );
    expect(reason(() => validateSelect("stock", "SELECT 1 FROM A; DROP TABLE A", "firebird"))).toBe(
      "Stok alanına tek bir SQL ifadesi yazın (ikinci ifade: DROP).",
    );
    expect(reason(() => validateSelect("stock", "   ", "firebird"))).toBe("Stok sorgusu boş.");
    expect(reason(() => validateSelect("prices", "SELEC x FRM y", "firebird"))).toBe(
      "Fiyat sorgusu SELECT ya da yalnızca SELECT içeren WITH ile yazılmalı; izin verilmeyen yer: SELEC",
    );
    // A ';' inside a string literal is data, not a second statement.
    expect(
      reason(() => validateSelect("prices", "SELECT A FROM B WHERE C = 'x;y'", "firebird")),
    ).toBeUndefined();
  });

  it("allows only the listed parameters", () => {
    expect(reason(() => validateSelect("products", "SELECT A FROM B WHERE C = @x", "firebird"))).toBe(
      "Ürün sorgusunda bilinmeyen parametre: @x. Kullanılabilenler: —.",
    );
    expect(
      reason(() => validateSelect("orderLookup", "SELECT REF FROM S WHERE REF = @ref", "firebird", ["ref"])),
    ).toBeUndefined();
  });

  it("takes a procedure call or an INSERT whose values are all parameters", () => {
    expect(validateOrderWrite("EXECUTE PROCEDURE WEB_SIPARIS_EKLE(@ref, @sku, @qty)", "firebird")).toBe(
      "procedure",
    );
    expect(validateOrderWrite("EXEC dbo.WebSiparis @ref, @linesJson", "mssql")).toBe("procedure");
    expect(validateOrderWrite("INSERT INTO S (REF, SKU) VALUES (@ref, @sku)", "firebird")).toBe("insert");
    expect(reason(() => validateOrderWrite("INSERT INTO S (REF, SKU) VALUES (@ref, 'X')", "firebird"))).toBe(
      "Sipariş INSERT şablonunda değerler yalnızca @parametre olabilir.",
    );
    expect(reason(() => validateOrderWrite("EXECUTE PROCEDURE P('x' || @ref)", "firebird"))).toMatch(
      /saklı yordam/,
    );
    expect(reason(() => validateOrderWrite("DELETE FROM S WHERE REF = @ref", "firebird"))).toBe(
      "Sipariş yazma sorgusunda izin verilmeyen ifade: DELETE",
    );
    // A second statement behind the write, hidden by the old literal-blind comment stripper.
    expect(
      reason(() =>
        validateOrderWrite(
          "INSERT INTO S (REF, SKU) VALUES (@ref, @sku) /* ' */ UPDATE S SET A = 1",
          "mssql",
        ),
      ),
    ).toBe("Sipariş yazma sorgusunda izin verilmeyen ifade: UPDATE");
    expect(reason(() => validateOrderWrite("EXEC P @ref; EXEC Q @ref", "mssql"))).toMatch(/ikinci ifade: ;/);
    expect(reason(() => validateOrderWrite("INSERT INTO S (REF) VALUES (@ref,", "mssql"))).toBe(
      'Sipariş yazma sorgusu okunamadı: 1. satır, 33. sütunda "," beklenmiyordu.',
    );
    expect(reason(() => validateOrderWrite("INSERT INTO S (A) VALUES (@password)", "firebird"))).toMatch(
      /bilinmeyen parametre: @password/,
    );
  });

  it("checks the mapping, the order lookup and the numbers of a stored configuration", () => {
    const ok: GenericSqlConfig = {
      stock: { sql: "SELECT K, D, M FROM SD", columns: { sku: "K", warehouse: "D", quantity: "M" } },
    };
    expect(parseGenericSqlConfig(JSON.stringify(ok), "firebird")).toEqual(ok);
    expect(reason(() => parseGenericSqlConfig("{", "firebird"))).toMatch(/geçersiz JSON/);
    expect(
      reason(() =>
        parseGenericSqlConfig(
          JSON.stringify({ stock: { ...ok.stock, columns: { sku: "K", warehouse: "D" } } }),
          "firebird",
        ),
      ),
    ).toBe("Stok eşlemesinde quantity alanı için sütun seçilmemiş.");
    expect(
      reason(() =>
        parseGenericSqlConfig(
          JSON.stringify({ stock: { ...ok.stock, columns: { ...ok.stock?.columns, sku: "K; DROP" } } }),
          "firebird",
        ),
      ),
    ).toMatch(/geçerli bir sütun adı değil/);
    expect(
      reason(() =>
        parseGenericSqlConfig(
          JSON.stringify({ orderWrite: { sql: "INSERT INTO S (A) VALUES (@ref)" } }),
          "firebird",
        ),
      ),
    ).toMatch(/önce sipariş arama sorgusunu/);
    expect(reason(() => parseGenericSqlConfig(JSON.stringify({ ...ok, rowCap: 0 }), "firebird"))).toMatch(
      /tam sayı/,
    );
  });

  it("wraps a query for keyset paging with the key as identifier and the last key as a parameter", () => {
    expect(keysetQuery("firebird", "SELECT ID, A FROM T;", "ID", 100, true)).toBe(
      "SELECT FIRST 100 * FROM (SELECT ID, A FROM T) q WHERE q.ID > @after ORDER BY q.ID",
    );
    expect(keysetQuery("mssql", "SELECT ID FROM T", "ID", 5, false)).toBe(
      "SELECT TOP (5) * FROM (SELECT ID FROM T) AS q ORDER BY q.ID",
    );
    expect(() => keysetQuery("firebird", "SELECT 1", "ID) --", 5, false)).toThrow();
    // SQL Server: the WITH list stays in front, a top-level ORDER BY without TOP/OFFSET is dropped (1033),
    // an OPTION hint moves to the outer statement; one that a row limit needs stays.
    expect(
      keysetQuery(
        "mssql",
        "WITH I AS (SELECT ID FROM T) SELECT ID FROM I ORDER BY ID DESC OPTION (MAXDOP 1);",
        "ID",
        5,
        true,
      ),
    ).toBe(
      "WITH I AS (SELECT ID FROM T) SELECT TOP (5) * FROM (SELECT ID FROM I) AS q WHERE q.ID > @after ORDER BY q.ID OPTION (MAXDOP 1)",
    );
    expect(keysetQuery("mssql", "SELECT TOP 10 ID FROM T ORDER BY ID -- son", "ID", 5, false)).toBe(
      "SELECT TOP (5) * FROM (SELECT TOP 10 ID FROM T ORDER BY ID) AS q ORDER BY q.ID",
    );
    expect(keysetQuery("mssql", "SELECT 'a--b' AS A, ID FROM T", "ID", 5, false)).toBe(
      "SELECT TOP (5) * FROM (SELECT 'a--b' AS A, ID FROM T) AS q ORDER BY q.ID",
    );
  });
});
