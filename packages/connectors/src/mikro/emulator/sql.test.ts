import { describe, expect, it } from "vitest";
import { runSelect, SqlError, type Table } from "./sql";

const tables: Record<string, Table> = {
  STOKLAR: {
    columns: ["sto_kod", "sto_isim", "sto_lastup_date", "sto_fiyat"],
    rows: Array.from({ length: 50 }, (_, i) => ({
      sto_kod: `K${String(i).padStart(3, "0")}`,
      sto_isim: i % 2 === 0 ? `Çay ${i}` : `Kahve ${i}`,
      sto_lastup_date: `2025-01-${String((i % 28) + 1).padStart(2, "0")} 10:00:00.000`,
      sto_fiyat: i * 1.5,
    })),
  },
};

describe("emulator SQL (SqlVeriOkuV2)", () => {
  it("selects with WHERE, OR, parentheses, IN, LIKE, ORDER BY and OFFSET/FETCH", () => {
    const rows = runSelect(
      "SELECT sto_kod AS kod, STO_ISIM FROM dbo.STOKLAR WITH (NOLOCK) WHERE (sto_kod > 'K010' OR (sto_kod = 'K005' AND sto_fiyat >= 7)) AND sto_isim LIKE N'Çay%' AND sto_kod NOT IN ('K012') ORDER BY sto_kod DESC OFFSET 1 ROWS FETCH NEXT 3 ROWS ONLY",
      tables,
    );
    expect(rows).toEqual([
      { kod: "K046", STO_ISIM: "Çay 46" },
      { kod: "K044", STO_ISIM: "Çay 44" },
      { kod: "K042", STO_ISIM: "Çay 42" },
    ]);
  });

  it("supports TOP and quoted quotes", () => {
    expect(runSelect("SELECT TOP 2 * FROM STOKLAR ORDER BY sto_fiyat DESC", tables)).toHaveLength(2);
    expect(runSelect("SELECT sto_kod FROM STOKLAR WHERE sto_isim = 'O''Neil'", tables)).toEqual([]);
  });

  it("counts with COUNT(*) and stops a sorted walk at a range's end", () => {
    expect(runSelect("SELECT COUNT(*) AS n FROM STOKLAR WHERE sto_isim LIKE 'Çay%'", tables)).toEqual([
      { n: 25 },
    ]);
    expect(runSelect("SELECT COUNT(*) FROM STOKLAR", tables)).toEqual([{ "": 50 }]);
    const range = runSelect(
      "SELECT sto_kod FROM STOKLAR WHERE sto_kod > 'K010' AND sto_kod < 'K014' ORDER BY sto_kod OFFSET 0 ROWS FETCH NEXT 100 ROWS ONLY",
      tables,
    );
    expect(range.map((r) => r.sto_kod)).toEqual(["K011", "K012", "K013"]);
    // The boundary row of a split: the row at an offset of the sorted order.
    expect(
      runSelect("SELECT sto_kod FROM STOKLAR ORDER BY sto_kod OFFSET 25 ROWS FETCH NEXT 1 ROWS ONLY", tables),
    ).toEqual([{ sto_kod: "K025" }]);
  });

  it("keeps ORDER BY exact after rows change and new rows are appended (the sorted cache is repaired)", () => {
    const t: Record<string, Table> = {
      T: {
        columns: ["k", "v"],
        rows: Array.from({ length: 200 }, (_, i) => ({ k: (i * 37) % 200, v: i })),
        version: 0,
      },
    };
    const sql = "SELECT k, v FROM T ORDER BY v DESC, k";
    const fresh = () =>
      [...(t.T as Table).rows].sort((a, b) => Number(b.v) - Number(a.v) || Number(a.k) - Number(b.k));
    expect(runSelect(sql, t)).toEqual(fresh());
    // A write changes sort keys in place and appends rows; the table's version says so.
    const table = t.T as Table;
    for (const r of table.rows.slice(0, 50)) r.v = 1000 - Number(r.k);
    table.rows.push({ k: 500, v: 5 }, { k: 501, v: 2000 });
    table.version = 1;
    expect(runSelect(sql, t)).toEqual(fresh());
  });

  it("refuses anything but one SELECT, with SQL Server-like messages", () => {
    expect(() => runSelect("DELETE FROM STOKLAR", tables)).toThrow(SqlError);
    expect(() => runSelect("SELECT * FROM STOKLAR; DROP TABLE STOKLAR", tables)).toThrow(/one SELECT/);
    expect(() => runSelect("SELECT nope FROM STOKLAR", tables)).toThrow("Invalid column name 'nope'.");
    expect(() => runSelect("SELECT * FROM YOK", tables)).toThrow("Invalid object name 'YOK'.");
    expect(() => runSelect("SELECT * FROM STOKLAR OFFSET 1 ROWS", tables)).toThrow(/ORDER BY/);
  });
});
