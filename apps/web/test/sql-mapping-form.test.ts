import { describe, expect, it } from "vitest";
import {
  fieldsOf,
  missingRequired,
  parseSqlMapping,
  serializeSqlMapping,
  withQuery,
} from "../src/features/connections/sql-mapping-form";

describe("the 'SQL ile bağlantı' form", () => {
  it("starts empty from nothing or from a value it cannot read", () => {
    for (const raw of [undefined, "", "{bozuk", "42"]) {
      const form = parseSqlMapping(raw);
      expect(form.queries.products).toEqual({ sql: "", keyColumn: "", columns: {} });
      expect(serializeSqlMapping(form)).toBe("");
    }
  });

  it("round-trips a stored configuration and drops what is not set", () => {
    const stored = {
      products: { sql: "SELECT ID, KOD, AD FROM STOK", columns: { sku: "KOD", name: "AD" }, keyColumn: "ID" },
      orderLookup: { sql: "SELECT REF FROM S WHERE REF = @ref", columns: { documentId: "REF" } },
      orderWrite: { sql: "EXECUTE PROCEDURE P(@ref)" },
    };
    const form = parseSqlMapping(JSON.stringify(stored));
    expect(JSON.parse(serializeSqlMapping(form))).toEqual(stored);
    const edited = withQuery(form, "stock", {
      sql: "  SELECT KOD, DEPO, MIK FROM SD  ",
      columns: { sku: "KOD", warehouse: " DEPO ", quantity: "MIK", extra: "" },
    });
    expect(JSON.parse(serializeSqlMapping(edited)).stock).toEqual({
      sql: "SELECT KOD, DEPO, MIK FROM SD",
      columns: { sku: "KOD", warehouse: "DEPO", quantity: "MIK" },
    });
  });

  it("marks the required columns of the queries that are written, and only those", () => {
    let form = parseSqlMapping("");
    expect(missingRequired(form)).toEqual([]);
    form = withQuery(form, "prices", { sql: "SELECT KOD, FIYAT FROM F", columns: { sku: "KOD" } });
    expect(missingRequired(form)).toEqual([{ query: "prices", field: "price" }]);
    expect(
      fieldsOf("stock")
        .filter((f) => f.required)
        .map((f) => f.field),
    ).toEqual(["sku", "warehouse", "quantity"]);
  });
});
