/**
 * The upload probe's three files, made here rather than kept (issue 33, item 3): a one-million-row
 * workbook, a zip bomb and a workbook with one cell at row 1,048,576. A small zip writer builds them
 * so a part's declared size can differ from what it inflates to (the bomb's lie); the tests and
 * `npm run bench:uploads -w @ep/bench` use the same files.
 */
import { once } from "node:events";
import { constants, createGzip, deflateRawSync } from "node:zlib";

type Part = {
  name: string;
  /** The part's bytes, deflated here chunk by chunk. */
  content?: Iterable<string | Buffer>;
  /** Or a deflate stream made elsewhere (the bomb), with its real size and no checksum. */
  deflated?: { data: Buffer; size: number };
  /** The uncompressed size written in the zip's headers instead of the real one (a lying bomb). */
  declaredSize?: number;
};

/** Raw deflate of the chunks with their CRC-32 and size, read from a gzip stream's trailer. */
async function deflate(content: Iterable<string | Buffer>) {
  const gzip = createGzip({ level: 6 });
  const out: Buffer[] = [];
  gzip.on("data", (c: Buffer) => out.push(c));
  for (const chunk of content) if (!gzip.write(chunk)) await once(gzip, "drain");
  gzip.end();
  await once(gzip, "end");
  const all = Buffer.concat(out);
  const trailer = all.subarray(all.length - 8);
  // The 10-byte header has no optional fields (Node writes none).
  return {
    data: all.subarray(10, all.length - 8),
    crc: trailer.readUInt32LE(0),
    size: trailer.readUInt32LE(4),
  };
}

/** A zip of deflated parts. */
export async function zipParts(parts: Part[]): Promise<Buffer> {
  const out: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const {
      data: body,
      crc,
      size,
    } = part.deflated ? { ...part.deflated, crc: 0 } : await deflate(part.content ?? []);
    const name = Buffer.from(part.name, "utf8");
    const declared = part.declaredSize ?? size;
    const header = (central: boolean) => {
      const b = Buffer.alloc(central ? 46 : 30);
      b.writeUInt32LE(central ? 0x02014b50 : 0x04034b50, 0);
      let p = 4;
      if (central) {
        b.writeUInt16LE(20, p);
        p += 2;
      }
      b.writeUInt16LE(20, p); // version needed
      b.writeUInt16LE(0x0800, p + 2); // UTF-8 names
      b.writeUInt16LE(8, p + 4); // deflate
      b.writeUInt16LE(0, p + 6);
      b.writeUInt16LE(0x21, p + 8); // 1980-01-01
      b.writeUInt32LE(crc, p + 10);
      b.writeUInt32LE(body.length, p + 14);
      b.writeUInt32LE(declared, p + 18);
      b.writeUInt16LE(name.length, p + 22);
      if (central) b.writeUInt32LE(offset, p + 36);
      return Buffer.concat([b, name]);
    };
    central.push(header(true));
    const local = header(false);
    out.push(local, body);
    offset += local.length + body.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...out, directory, end]);
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main";
const REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships";

/** A one-sheet workbook around `sheetData` (the rows' XML), with shared strings when given. */
export function workbook(
  sheetData: Iterable<string> | { data: Buffer; size: number },
  options: { sharedStrings?: Iterable<string>; sheetDeclaredSize?: number } = {},
): Promise<Buffer> {
  const shared = options.sharedStrings;
  return zipParts([
    {
      name: "[Content_Types].xml",
      content: [
        `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>${shared ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' : ""}</Types>`,
      ],
    },
    {
      name: "_rels/.rels",
      content: [
        `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
      ],
    },
    {
      name: "xl/workbook.xml",
      content: [
        `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Stok" sheetId="1" r:id="rId1"/></sheets></workbook>`,
      ],
    },
    {
      name: "xl/_rels/workbook.xml.rels",
      content: [
        `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>${shared ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>` : ""}</Relationships>`,
      ],
    },
    ...(shared
      ? [{ name: "xl/sharedStrings.xml", content: wrap(`${XML}<sst xmlns="${MAIN}">`, shared, "</sst>") }]
      : []),
    {
      name: "xl/worksheets/sheet1.xml",
      ...(Symbol.iterator in sheetData
        ? {
            content: wrap(
              `${XML}<worksheet xmlns="${MAIN}"><sheetData>`,
              sheetData,
              "</sheetData></worksheet>",
            ),
          }
        : { deflated: sheetData }),
      ...(options.sheetDeclaredSize === undefined ? {} : { declaredSize: options.sheetDeclaredSize }),
    },
  ]);
}

function* wrap(head: string, body: Iterable<string>, tail: string): Iterable<string> {
  yield head;
  yield* body;
  yield tail;
}

/** Rows' XML in chunks of about `rowsPerChunk` rows. */
function* chunked(count: number, row: (i: number) => string, rowsPerChunk = 5000): Iterable<string> {
  let chunk = "";
  for (let i = 1; i <= count; i++) {
    chunk += row(i);
    if (i % rowsPerChunk === 0) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}

const sku = (i: number) => `SKU-${String(i).padStart(7, "0")}`;

/**
 * A stock list of `rows` records after the header (sku shared strings, warehouse inline, quantity), as
 * Excel writes one: the probe's million-row file is `stockWorkbook(1_000_000)` (about 10 MB).
 */
export function stockWorkbook(rows: number): Promise<Buffer> {
  // Shared strings: 0 sku, 1 warehouse, 2 quantity, 3 MERKEZ, then one per record.
  const header = "<si><t>sku</t></si><si><t>warehouse</t></si><si><t>quantity</t></si><si><t>MERKEZ</t></si>";
  return workbook(
    wrap(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>',
      chunked(
        rows,
        (i) =>
          `<row r="${i + 1}"><c r="A${i + 1}" t="s"><v>${i + 3}</v></c><c r="B${i + 1}" t="s"><v>3</v></c><c r="C${i + 1}"><v>${i % 500}</v></c></row>`,
      ),
      "",
    ),
    {
      sharedStrings: wrap(
        header,
        chunked(rows, (i) => `<si><t>${sku(i)}</t></si>`),
        "",
      ),
    },
  );
}

/**
 * A zip bomb: a sheet that inflates to about `unpackedBytes` of one row repeated, at about 1,000 : 1.
 * One megabyte is deflated once with a full flush (a segment that needs nothing before it) and the
 * segment repeated, so making a 3 GB bomb costs no 3 GB of deflating. The zip declares the real size,
 * or with `lie` 1 kB, so that only the inflated bytes show what it is.
 */
export function bombWorkbook(unpackedBytes: number, lie = false): Promise<Buffer> {
  const row = '<row><c t="inlineStr"><is><t>AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA</t></is></c></row>';
  const block = Buffer.from(row.repeat(Math.ceil((1024 * 1024) / row.length)));
  const head = Buffer.from(`${XML}<worksheet xmlns="${MAIN}"><sheetData>`);
  const segment = (data: Buffer) =>
    deflateRawSync(data, { level: constants.Z_BEST_COMPRESSION, finishFlush: constants.Z_FULL_FLUSH });
  const copies = Math.ceil(unpackedBytes / block.length);
  const body = segment(block);
  // 0x03 0x00: a last block, fixed codes, holding only its end (the stream's end).
  const data = Buffer.concat([
    segment(head),
    ...Array.from({ length: copies }, () => body),
    Buffer.from([3, 0]),
  ]);
  return workbook(
    { data, size: head.length + copies * block.length },
    lie ? { sheetDeclaredSize: 1024 } : {},
  );
}

/** A header and one cell at the last row Excel has (1,048,576): a file of about 1.5 kB. */
export function farCellWorkbook(): Promise<Buffer> {
  return workbook([
    '<row r="1"><c r="A1" t="inlineStr"><is><t>sku</t></is></c><c r="B1" t="inlineStr"><is><t>quantity</t></is></c></row>',
    '<row r="1048576"><c r="A1048576" t="inlineStr"><is><t>SKU-1</t></is></c><c r="B1048576"><v>5</v></c></row>',
  ]);
}
