import { createRequire } from "node:module";
import { readInvoice } from "./read.ts";
import { LABELS, partyLines, printedForm } from "./view.ts";

/**
 * The same printed form as `renderInvoiceHtml`, as an A4 PDF drawn by pdfkit (pure JavaScript, nothing
 * downloaded). The fonts are DejaVu Sans from the npm package `dejavu-fonts-ttf`, embedded (subset), so
 * Turkish letters (ç ğ ı İ ö ş ü) render on any reader; PDF's 14 standard fonts have no ğ, ı, İ, ş.
 */

const require = createRequire(import.meta.url);
const FONT = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf");
const FONT_BOLD = require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf");

const MARGIN = 36;
const SIZE = 8;

export async function renderInvoicePdf(xml: string): Promise<Buffer> {
  // pdfkit and its font engine (about 10 MB of a server's heap) load with the first PDF asked for.
  const { default: PDFDocument } = await import("pdfkit");
  const v = readInvoice(xml);
  const form = printedForm(v);
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    info: { Title: `${form.title} ${v.number}`, Subject: v.uuid, Creator: "Entegrasyon Paneli" },
  });
  doc.registerFont("body", FONT);
  doc.registerFont("bold", FONT_BOLD);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("data", (c: Buffer) => chunks.push(c));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const width = doc.page.width - 2 * MARGIN;
  const half = width / 2 - 8;

  // Seller (left) and title (right).
  const top = doc.y;
  doc.font("bold").fontSize(10).text(v.supplier.name, MARGIN, top, { width: half });
  doc.font("body").fontSize(SIZE);
  for (const l of partyLines(v.supplier)) doc.text(l, { width: half });
  const afterSeller = doc.y;
  doc
    .font("bold")
    .fontSize(16)
    .text(form.title, MARGIN + half + 16, top, { width: half, align: "right" });
  doc.y = Math.max(afterSeller, doc.y) + 6;
  doc
    .moveTo(MARGIN, doc.y)
    .lineTo(MARGIN + width, doc.y)
    .stroke();
  doc.y += 6;

  // Buyer (left) and the header box (right).
  const buyerTop = doc.y;
  doc.font("bold").fontSize(SIZE).text(LABELS.buyer, MARGIN, buyerTop, { width: half });
  doc.font("bold").fontSize(9).text(v.customer.name, { width: half });
  doc.font("body").fontSize(SIZE);
  for (const l of partyLines(v.customer)) doc.text(l, { width: half });
  const afterBuyer = doc.y;
  const info = [...form.header, { label: LABELS.ettn, value: v.uuid }].map((r) => [r.label, r.value]);
  const afterInfo = grid(MARGIN + half + 16, buyerTop, [95, half - 95], info, { boldFirst: true });
  doc.y = Math.max(afterBuyer, afterInfo) + 10;

  // Lines.
  const cols = [28, 0, 46, 56, 42, 52, 36, 52, 62];
  cols[1] = width - cols.reduce((a, b) => a + b, 0);
  doc.y = grid(MARGIN, doc.y, cols, [[...LABELS.columns], ...form.lines], {
    headerRow: true,
    alignRight: (c) => c !== 1,
  });
  doc.y += 8;

  // Totals, right aligned.
  const totalsWidth = 260;
  doc.y = grid(
    MARGIN + width - totalsWidth,
    doc.y,
    [160, totalsWidth - 160],
    form.totals.map((r) => [r.label, r.value]),
    { boldFirst: true, alignRight: (c) => c === 1 },
  );
  doc.y += 10;

  const box = (heading: string, lines: string[]) => {
    if (!lines.length) return;
    doc.font("bold").fontSize(9).text(heading, MARGIN, doc.y, { width });
    doc.font("body").fontSize(SIZE);
    for (const l of lines) doc.text(l, { width });
    doc.moveDown(0.5);
  };
  box(
    LABELS.internetSale,
    form.internetSale.map((r) => `${r.label} ${r.value}`),
  );
  box(LABELS.notes, [...form.exemptions, ...form.notes]);
  doc.end();
  return done;

  /** A bordered table; rows grow with their text and break to a new page. Returns the y below it. */
  function grid(
    x: number,
    y: number,
    widths: number[],
    table: string[][],
    opts: { headerRow?: boolean; boldFirst?: boolean; alignRight?: (col: number) => boolean },
  ): number {
    let cursor = y;
    table.forEach((row, r) => {
      const isHeader = opts.headerRow === true && r === 0;
      const fontOf = (c: number) => (isHeader || (opts.boldFirst && c === 0) ? "bold" : "body");
      const height =
        Math.max(
          ...row.map((cell, c) =>
            doc
              .font(fontOf(c))
              .fontSize(SIZE)
              .heightOfString(cell, { width: (widths[c] ?? 0) - 4 }),
          ),
        ) + 4;
      if (cursor + height > doc.page.height - MARGIN) {
        doc.addPage();
        cursor = MARGIN;
      }
      let cx = x;
      row.forEach((cell, c) => {
        const w = widths[c] ?? 0;
        if (isHeader)
          doc.rect(cx, cursor, w, height).fillAndStroke("#eeeeee", "#000000").fillColor("#000000");
        else doc.rect(cx, cursor, w, height).stroke();
        doc
          .font(fontOf(c))
          .fontSize(SIZE)
          .text(cell, cx + 2, cursor + 2, {
            width: w - 4,
            align: !isHeader && opts.alignRight?.(c) ? "right" : "left",
          });
        cx += w;
      });
      cursor += height;
    });
    return cursor;
  }
}
