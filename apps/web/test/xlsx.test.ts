import { deflateRawSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { buildXlsx, readXlsxRows } from "../src/lib/xlsx";

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

/** A zip as Excel writes it: every part deflated, the central directory at the end. */
function deflatedZip(files: Record<string, string>): Uint8Array {
  const local: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const nameBytes = Buffer.from(name);
    const data = deflateRawSync(Buffer.from(text));
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(8, 8);
    head.writeUInt32LE(data.length, 18);
    head.writeUInt32LE(Buffer.byteLength(text), 22);
    head.writeUInt16LE(nameBytes.length, 26);
    local.push(head, nameBytes, data);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(Buffer.byteLength(text), 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    central.push(entry, nameBytes);
    offset += head.length + nameBytes.length + data.length;
  }
  const dir = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(dir.length, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...local, dir, end]));
}

describe("xlsx import", () => {
  it("reads back what the writer wrote", async () => {
    const rows = await readXlsxRows(
      buildXlsx("Eşleştirme", [
        ["ERP Kodu", "Mağaza Kodu"],
        ["MK-0001", 8690000000012],
      ]),
    );
    expect(rows).toEqual([
      ["ERP Kodu", "Mağaza Kodu"],
      ["MK-0001", "8690000000012"],
    ]);
  });

  it("reads a deflated workbook with shared strings, rich text, gaps and skipped rows as Excel saves it", async () => {
    const bytes = deflatedZip({
      "xl/sharedStrings.xml":
        '<sst count="3"><si><t>ERP Kodu</t></si><si><t>Mağaza &amp; Kodu</t></si><si><r><t>ÇAY-</t></r><r><t xml:space="preserve">01</t></r></si></sst>',
      "xl/worksheets/sheet1.xml":
        '<worksheet><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>' +
        '<row r="3"><c r="A3" t="s"><v>2</v></c><c r="C3"><v>42</v></c></row>' +
        '<row r="4" spans="1:2"><c r="B4" t="inlineStr"><is><t>SHOP-9</t></is></c></row></sheetData></worksheet>',
    });
    expect(await readXlsxRows(bytes)).toEqual([
      ["ERP Kodu", "Mağaza & Kodu"],
      [],
      ["ÇAY-01", "", "42"],
      ["", "SHOP-9"],
    ]);
  });

  it("refuses a file that is no workbook", async () => {
    await expect(readXlsxRows(new TextEncoder().encode("ERP;SHOP\nA;B"))).rejects.toThrow();
  });
});
