import { describe, expect, it } from "vitest";
import { buildXlsx } from "../src/features/reports/xlsx";

describe("xlsx export", () => {
  it("writes a zip holding the workbook parts, with strings escaped and numbers as numbers", () => {
    const bytes = buildXlsx("Satış Raporu", [
      ["Sipariş No", "Tutar"],
      ["A&B <1>", 1234.56],
    ]);
    expect([...bytes.slice(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const text = new TextDecoder().decode(bytes);
    for (const part of [
      "[Content_Types].xml",
      "xl/workbook.xml",
      "xl/worksheets/sheet1.xml",
      "_rels/.rels",
    ]) {
      expect(text).toContain(part);
    }
    expect(text).toContain("A&amp;B &lt;1&gt;");
    expect(text).toContain('<c r="B2"><v>1234.56</v></c>');
    expect(text).toContain('name="Satış Raporu"');
  });
});
