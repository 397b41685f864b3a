import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companyOrder, saleHeader, sampleOrder, seller } from "../testing/fixtures.ts";
import { visibleText as visible } from "../testing/html-text.ts";
import { buildUblInvoice, VAT_EXEMPTION_351 } from "../ubl.ts";
import { gibUblTrPackage } from "../validation/gib-package.ts";
import { renderInvoiceHtml } from "./html.ts";

/**
 * Our page against GİB's standard display: `general.xslt` of GİB's UBL-TR 1.2.1 package (read in place from
 * the fetched phax/phive-rules snapshot, see gib-package.ts), run by Saxon-HE over the same documents. Every
 * amount GİB's display prints, and the header fields, must be on our page, formatted the same way.
 */

const run = promisify(execFile);
const saxon = () => process.env.SAXON_JAR ?? "/usr/share/java/Saxon-HE.jar";

const MONEY = /^-?\d{1,3}(?:\.\d{3})*,\d{2} (?:TL|USD|EUR)$/;

const header = saleHeader;
const company = companyOrder();

let dir: string;
const gib = new Map<string, string[]>();
const ours = new Map<string, string[]>();

beforeAll(async () => {
  const pkg = await gibUblTrPackage(["general.xslt", "TicariFaturaOrnegi.xml", "TemelFaturaOrnegi.xml"]);
  const documents: Record<string, string> = {
    earsiv: buildUblInvoice(sampleOrder(), seller, header).xml,
    temel: buildUblInvoice(company, seller, { ...header, profile: "TEMELFATURA", number: "WEB2026000000002" })
      .xml,
    usd: buildUblInvoice(sampleOrder({ currency: "USD" }), seller, { ...header, exchangeRate: 34.5 }).xml,
    zero: buildUblInvoice(
      sampleOrder({
        lines: [{ sku: "K", name: "Kitap", qty: 2, unitPrice: 50, vatRate: 0, discount: 10, total: 90 }],
        shipping: { cost: 0 },
        totals: { subtotal: 100, discount: 10, shipping: 0, tax: 0, grandTotal: 90 },
      }),
      seller,
      { ...header, vatExemption: VAT_EXEMPTION_351 },
    ).xml,
    // GİB's own samples: our reader must show what GİB's display shows for a document not of ours.
    gibTicari: pkg.get("TicariFaturaOrnegi.xml")?.toString("utf8") ?? "",
    gibTemel: pkg.get("TemelFaturaOrnegi.xml")?.toString("utf8") ?? "",
  };
  dir = mkdtempSync(join(tmpdir(), "ep-gib-display-"));
  mkdirSync(join(dir, "in"));
  mkdirSync(join(dir, "out"));
  const xslt = join(dir, "general.xslt");
  writeFileSync(xslt, pkg.get("general.xslt") ?? "");
  for (const [name, xml] of Object.entries(documents)) {
    writeFileSync(join(dir, "in", `${name}.xml`), xml);
    ours.set(name, visible(renderInvoiceHtml(xml)));
  }
  // One JVM for all documents.
  await run("java", ["-jar", saxon(), `-s:${join(dir, "in")}`, `-xsl:${xslt}`, `-o:${join(dir, "out")}`], {
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const name of Object.keys(documents))
    gib.set(name, visible(readFileSync(join(dir, "out", `${name}.xml`), "utf8")));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("our invoice page against GİB's standard display (general.xslt)", () => {
  it("shows every amount GİB's display shows, in GİB's format, for our documents and GİB's samples", () => {
    const report: string[] = [];
    for (const [name, gibText] of gib) {
      const amounts = gibText.filter((t) => MONEY.test(t));
      expect(amounts.length, name).toBeGreaterThan(4);
      const ourText = new Set(ours.get(name));
      const missing = amounts.filter((a) => !ourText.has(a));
      if (missing.length) report.push(`${name}: ${missing.join(", ")}`);
    }
    expect(report).toEqual([]);
  });

  it("shows the header GİB shows: scenario, type, number, date and time, ETTN, web address", () => {
    for (const name of ["earsiv", "temel", "usd", "zero"]) {
      const gibText = gib.get(name) ?? [];
      const ourText = ours.get(name) ?? [];
      const after = (text: string[], label: string) => text[text.findIndex((t) => t.startsWith(label)) + 1];
      for (const label of ["Senaryo:", "Fatura Tipi:", "Fatura No:", "Fatura Tarihi:", "ETTN:"])
        expect(after(ourText, label), `${name} ${label}`).toBe(after(gibText, label));
      expect(gibText).toContain("Web Sitesi: https://www.anadolu.example");
      expect(ourText).toContain("Web Sitesi: https://www.anadolu.example");
    }
    // GİB's title words for the two systems.
    expect(gib.get("earsiv")).toContain("e-Arşiv Fatura");
    expect(ours.get("earsiv")).toContain("e-Arşiv Fatura");
    expect(gib.get("temel")).toContain("e-FATURA");
    expect(ours.get("temel")).toContain("e-FATURA");
  });
});
