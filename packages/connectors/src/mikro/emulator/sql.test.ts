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

  it("refuses anything but one SELECT, with SQL Server-like messages", () => {
    expect(() => runSelect("DELETE FROM STOKLAR", tables)).toThrow(SqlError);
    expect(() => runSelect("SELECT * FROM STOKLAR; DROP TABLE STOKLAR", tables)).toThrow(/one SELECT/);
    expect(() => runSelect("SELECT nope FROM STOKLAR", tables)).toThrow("Invalid column name 'nope'.");
    expect(() => runSelect("SELECT * FROM YOK", tables)).toThrow("Invalid object name 'YOK'.");
    expect(() => runSelect("SELECT * FROM STOKLAR OFFSET 1 ROWS", tables)).toThrow(/ORDER BY/);
  });
});
