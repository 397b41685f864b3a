import { describe, expect, it } from "vitest";
import { keysetQuery } from "../generic-sql/config";
import { judgeTsql, type SqlSchemaFixture, tsqlParameterNames } from "./sql-judge";

const schema: SqlSchemaFixture = {
  LG_001_ITEMS: {
    source: "test fixture",
    columns: { LOGICALREF: "test", CODE: "test", NAME: "test", ACTIVE: "test" },
  },
  LG_001_01_STINVTOT: {
    source: "test fixture",
    columns: { STOCKREF: "test", INVENNO: "test", ONHAND: "test" },
  },
  WEB_SIPARIS_YAZ: { source: "test fixture", columns: { ref: "test", lines: "test" } },
};

describe("T-SQL judge", () => {
  it("accepts one statement with @parameters, joins, aliases, brackets and TOP (@n)", () => {
    for (const text of [
      "SELECT I.LOGICALREF, I.CODE AS KOD FROM LG_001_ITEMS I WHERE I.CODE = @sku ORDER BY KOD",
      "SELECT [CODE], [NAME] FROM [dbo].[LG_001_ITEMS] WITH (NOLOCK) WHERE ACTIVE = 0",
      "SELECT I.CODE, S.ONHAND FROM LG_001_ITEMS I JOIN LG_001_01_STINVTOT S ON S.STOCKREF = I.LOGICALREF WHERE S.INVENNO = @depot",
      "SELECT TOP (@n) CODE FROM LG_001_ITEMS WHERE LOGICALREF > @after ORDER BY LOGICALREF",
      "EXEC dbo.WEB_SIPARIS_YAZ @ref, @lines",
    ]) {
      const verdict = judgeTsql(text, schema);
      expect(verdict, text).toMatchObject({ ok: true, errors: [] });
    }
  });

  it("refuses what SQL Server's grammar would not take, and names unknown tables and columns", () => {
    expect(judgeTsql("SELEC CODE FROM LG_001_ITEMS").ok).toBe(false);
    expect(judgeTsql("UPDAT LG_001_ITEMS SET CODE = @c")).toMatchObject({ ok: false, kind: "unparsed" });
    expect(judgeTsql("FOO BAR").ok).toBe(false);
    expect(judgeTsql("SELECT CODE FROM T ORDER BY CODE OFFSET 10 ROWS FETCH NEXT 5 ROWS ONLY").ok).toBe(true);
    expect(judgeTsql("SELECT CODE FROM LG_001_ITEMS LIMIT 10")).toMatchObject({ ok: false });
    expect(judgeTsql("SELECT CODE FROM LG_001_ITEMS; DELETE FROM LG_001_ITEMS").ok).toBe(false);
    expect(judgeTsql("SELECT CODE FROM LG_002_ITEMS", schema).errors).toEqual([
      "unknown table LG_002_ITEMS (not in the schema fixture)",
    ]);
    expect(judgeTsql("SELECT I.BARCODE FROM LG_001_ITEMS I", schema).errors).toEqual([
      "unknown column LG_001_ITEMS.BARCODE",
    ]);
    expect(judgeTsql("SELECT PRICE FROM LG_001_ITEMS", schema).errors[0]).toMatch(/unknown column PRICE/);
    expect(judgeTsql("EXEC dbo.YOK @ref", schema).ok).toBe(false);
    expect(judgeTsql("EXEC dbo.WEB_SIPARIS_YAZ @ref, @lines, @extra", schema).ok).toBe(false);
  });

  it("without a schema it checks the grammar only; a literal '@x' in a string is not a parameter", () => {
    expect(judgeTsql("SELECT ANYTHING FROM ANYWHERE WHERE NOTE = '@x' AND K = @k")).toMatchObject({
      ok: true,
      kind: "select",
      tables: ["ANYWHERE"],
    });
  });

  it("reads a patterned schema through a lookup and adds a connector's own rules to the verdict", () => {
    const lookup = (t: string) => (/^LG_\d{3}_ITEMS$/i.test(t) ? schema.LG_001_ITEMS : undefined);
    const selectOnly = ({ ast }: { ast: Array<{ type?: string }> }) =>
      ast[0]?.type === "select" ? [] : ["reads only"];
    expect(judgeTsql("SELECT CODE FROM LG_007_ITEMS WHERE CODE = @c", lookup, selectOnly).errors).toEqual([]);
    expect(judgeTsql("SELECT PRICE FROM lg_002_items", lookup).errors[0]).toMatch(/unknown column PRICE/);
    expect(judgeTsql("SELECT CODE FROM LG_001_ITEMZ", lookup).errors).toEqual([
      "unknown table LG_001_ITEMZ (not in the schema fixture)",
    ]);
    expect(judgeTsql("DELETE FROM LG_001_ITEMS WHERE CODE = @c", lookup, selectOnly).errors).toEqual([
      "reads only",
    ]);
    expect([...tsqlParameterNames("SELECT 1 FROM T WHERE A = @a AND B = '@b' -- @c\n AND D = @d")]).toEqual([
      "a",
      "d",
    ]);
  });

  it("judges the generic SQL connector's keyset pages for SQL Server", () => {
    const inner = "SELECT LOGICALREF, CODE, NAME FROM LG_001_ITEMS";
    for (const after of [false, true]) {
      const verdict = judgeTsql(keysetQuery("mssql", inner, "LOGICALREF", 500, after), schema);
      expect(verdict, String(after)).toMatchObject({ ok: true, kind: "select", tables: ["LG_001_ITEMS"] });
    }
  });
});
