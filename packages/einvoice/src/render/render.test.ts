import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { saleHeader, sampleOrder, seller } from "../testing/fixtures.ts";
import { visibleText as visible } from "../testing/html-text.ts";
import { pdfText } from "../testing/pdf-text.ts";
import { buildUblInvoice } from "../ubl.ts";
import { renderInvoiceHtml } from "./html.ts";
import { renderInvoicePdf } from "./pdf.ts";
import { formatDecimal } from "./view.ts";

const header = saleHeader;
const built = () => buildUblInvoice(sampleOrder(), { ...seller, website: "https://anadolu.example" }, header);

describe("GİB's number format", () => {
  it("groups thousands with '.', decimals with ',', half up, prices up to 8 decimals", () => {
    expect(formatDecimal("1287.3")).toBe("1.287,30");
    expect(formatDecimal("1234567.005")).toBe("1.234.567,01");
    expect(formatDecimal("0")).toBe("0,00");
    expect(formatDecimal("-41.5")).toBe("-41,50");
    expect(formatDecimal("12.37666667", 2, 8)).toBe("12,37666667");
    expect(formatDecimal("101", 0, 4)).toBe("101");
  });
});

describe("renderInvoiceHtml", () => {
  it("shows the header, the parties, every line and the totals as GİB's display prints them", () => {
    const { xml, amounts } = built();
    const text = visible(renderInvoiceHtml(xml));
    for (const expected of [
      "e-Arşiv Fatura",
      "Anadolu Ticaret A.Ş.",
      "SAYIN",
      "Ayşe Yılmaz",
      "EARSIVFATURA",
      "SATIS",
      "WEB2026000000001",
      "20-11-2026 10:15",
      "8d0c7a1e-1111-4b3c-8d4e-0123456789ab",
      "Kazak",
      "Kargo (Yurtiçi)",
      "Web Sitesi: https://anadolu.example",
    ])
      expect(text).toContain(expected);
    // Totals: the label is followed by its amount in GİB's format.
    const after = (label: string) => text[text.indexOf(label) + 1];
    expect(after("Ödenecek Tutar")).toBe(`${formatDecimal(String(amounts.payableK / 100))} TL`);
    expect(after("Ödenecek Tutar")).toBe("1.287,30 TL");
    expect(after("Hesaplanan KDV(%20,00)")).toBe("191,65 TL");
    expect(after("Toplam İskonto")).toBe("83,33 TL");
  });

  it("escapes what the document says (a name is never markup)", () => {
    const order = sampleOrder();
    order.lines[0] = { ...order.lines[0]!, name: '<img src=x onerror="alert(1)">' };
    const html = renderInvoiceHtml(buildUblInvoice(order, seller, header).xml);
    expect(html).not.toContain("<img");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("a foreign-currency invoice shows the rate and the TL amounts at that rate", () => {
    const order = sampleOrder({ currency: "USD" });
    const { xml, amounts } = buildUblInvoice(order, seller, { ...header, exchangeRate: 34.5 });
    const text = visible(renderInvoiceHtml(xml));
    expect(text).toContain("1 USD = 34,50 TL (20-11-2026)");
    const after = (label: string) => text[text.indexOf(label) + 1];
    expect(after("Ödenecek Tutar")).toBe("1.287,30 USD");
    expect(after("Ödenecek Tutar(TL)")).toBe(
      `${formatDecimal(((amounts.payableK / 100) * 34.5).toFixed(2))} TL`,
    );
  });

  it("refuses what is not a UBL invoice", () => {
    expect(() => renderInvoiceHtml("<CreditNote/>")).toThrow(/UBL faturası değil/);
  });
});

describe("renderInvoicePdf", () => {
  /** Every stream of the PDF, inflated where it is compressed. */
  const streams = (pdf: Buffer): string[] => {
    const out: string[] = [];
    const raw = pdf.toString("latin1");
    for (const m of raw.matchAll(/stream\r?\n/g)) {
      const start = (m.index ?? 0) + m[0].length;
      const end = raw.indexOf("endstream", start);
      const bytes = pdf.subarray(start, end);
      try {
        out.push(inflateSync(bytes).toString("latin1"));
      } catch {
        out.push(bytes.toString("latin1"));
      }
    }
    return out;
  };

  it("is a PDF with DejaVu Sans embedded, and the Turkish letters drawn map to their Unicode code points", async () => {
    const pdf = await renderInvoicePdf(built().xml);
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    const raw = pdf.toString("latin1");
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    expect(raw).toContain("/FontFile2");
    // The ToUnicode maps of the embedded fonts: each drawn glyph → its character. "Ayşe Yılmaz",
    // "Anadolu Ticaret A.Ş.", "Kadıköy", "İskonto", "Yurtiçi", "Güneş"... need ş ı Ş İ ç ö ğ.
    const cmaps = streams(pdf)
      .filter((s) => s.includes("begincmap"))
      .join("\n")
      .toUpperCase();
    for (const codePoint of ["015F", "0131", "015E", "0130", "00E7", "00F6"])
      expect(cmaps).toContain(`<${codePoint}>`);
  });

  it("draws the same header, lines and totals as the page", async () => {
    const { xml } = built();
    const text = pdfText(await renderInvoicePdf(xml))
      .split("\n")
      .map((l) => l.trim());
    for (const expected of [
      "e-Arşiv Fatura",
      "Anadolu Ticaret A.Ş.",
      "Ayşe Yılmaz",
      "WEB2026000000001",
      "20-11-2026 10:15",
      "Kargo (Yurtiçi)",
      "1.287,30 TL",
      "191,65 TL",
      "Web Sitesi: https://anadolu.example",
    ])
      expect(text).toContain(expected);
  });
});
