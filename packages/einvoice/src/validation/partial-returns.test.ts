import { beforeAll, describe, expect, it } from "vitest";
import { computeAmounts, toKurus } from "../amounts.ts";
import { returnedPart } from "../returned-part.ts";
import { iadeProfile } from "../returns.ts";
import { companyOrder, sampleOrder, seller } from "../testing/fixtures.ts";
import { buildUblInvoice, type InvoiceHeader } from "../ubl.ts";
import { GibValidator } from "./gib-package.ts";
import { SchematronValidator, totalsSchematron, validateXsd } from "./validate.ts";

/**
 * A partial return's document (issue 37): a 3-line sale with an order discount of 50 TL (shipping 49,90) of
 * which first the book (1 of 1) and then one sweater (1 of 2) come back. Each IADE covers only its units, with
 * the order discount shared in proportion, and passes the same three layers as the full IADEs
 * (`returns.test.ts`): UBL 2.1 XSD, GİB's current package, our arithmetic rules.
 */

const discounted = { subtotal: 1337.4, discount: 150, shipping: 49.9, tax: 0, grandTotal: 1237.3 };
const consumer = sampleOrder({ totals: discounted });
const company = companyOrder({ totals: discounted });
const sale = { number: "WEB2026000000007", issueDate: "2026-11-20" };
const book = [{ line: 1, qty: 1 }];
const sweater = [{ line: 0, qty: 1 }];
/** What stays with the buyer after both returns. */
const kept = [
  { line: 0, qty: 1, before: 1 },
  { line: 2, qty: 3 },
];

const header = (i: number, profile: InvoiceHeader["profile"]): InvoiceHeader => ({
  profile,
  type: "IADE",
  number: `WEB2026${String(200 + i).padStart(9, "0")}`,
  uuid: `8d0c7a1e-${5000 + i}-4b3c-8d4e-0123456789ab`,
  issueDate: "2026-11-23",
  issueTime: "14:05:00",
  returnOf: sale,
});

let gib: GibValidator;
let totals: SchematronValidator;
beforeAll(async () => {
  gib = await GibValidator.current();
  totals = new SchematronValidator(totalsSchematron);
});

describe("partial returns: the returned part of a sale", () => {
  it("covers only the returned units, with the order discount shared in proportion, to the kuruş", () => {
    const first = returnedPart(consumer, book);
    const second = returnedPart(consumer, sweater);
    // The order discount (50 TL) falls on the lines by their amounts: 44,45 / 4,04 / 1,51 (largest remainder).
    expect(first.lines).toMatchObject([{ sku: "KTP-07", qty: 1, total: 95.86, discount: 4.04 }]);
    // Half the sweater line: (1.100 − 44,45) / 2 rounded up; its discount (100 + 44,45) / 2 likewise.
    expect(second.lines).toMatchObject([{ sku: "KZK-01", qty: 1, total: 527.78, discount: 72.23 }]);
    expect(second.shipping.cost).toBe(0);
    expect(second.totals.grandTotal).toBe(527.78);
    // The second sweater, counted after the first: the two halves add up to the line exactly.
    const rest = returnedPart(consumer, kept);
    expect(rest.lines[0]).toMatchObject({ total: 527.77, discount: 72.22 });
    const goodsK = toKurus(consumer.totals.grandTotal - consumer.shipping.cost);
    expect(
      [first, second, rest].reduce((sum, p) => sum + toKurus(p.totals.grandTotal), 0),
      "returned parts and what stays add up to the sale's goods",
    ).toBe(goodsK);
    // VAT on each returned line, rounded on the line (GİB's way): 20 % of 439,82 and 10 % of 87,15.
    const a = computeAmounts(second);
    expect(a.lines.map((l) => [l.netK, l.taxK, l.discountK])).toEqual([[43982, 8796, 6019]]);
    expect(a.payableK).toBe(52778);
    expect(computeAmounts(first).lines.map((l) => [l.netK, l.taxK])).toEqual([[8715, 872]]);
  });

  it("never gives back more than was sold", () => {
    expect(() => returnedPart(consumer, [{ line: 1, qty: 1, before: 1 }])).toThrow(/İade miktarı/);
    expect(() => returnedPart(consumer, [{ line: 3, qty: 1 }])).toThrow(/kalem yok/);
  });

  it("each partial IADE passes the UBL 2.1 schema, GİB's package and our arithmetic rules", async () => {
    const built = [
      buildUblInvoice(returnedPart(consumer, book), seller, header(1, iadeProfile("EARSIVFATURA"))),
      buildUblInvoice(returnedPart(consumer, sweater), seller, header(2, iadeProfile("EARSIVFATURA"))),
      buildUblInvoice(
        returnedPart(company, [...book, ...sweater]),
        seller,
        header(3, iadeProfile("TEMELFATURA")),
      ),
      buildUblInvoice(returnedPart(company, sweater), seller, header(4, iadeProfile("TICARIFATURA"))),
    ];
    const xmls = built.map((b) => b.xml);
    expect(await validateXsd(xmls)).toEqual(xmls.map(() => ({ valid: true, errors: [] })));
    for (const r of await gib.validate(xmls)) {
      expect(r.failed).toEqual([]);
      expect(r.evaluated.size).toBeGreaterThan(60);
    }
    for (const r of await totals.validate(xmls)) expect(r.failed).toEqual([]);
    for (const b of built) {
      expect(b.xml).toContain("<cbc:InvoiceTypeCode>IADE</cbc:InvoiceTypeCode>");
      expect(b.xml).not.toContain("Kargo");
    }
    // Only the returned lines are on the documents.
    expect((built[1]?.xml.match(/<cac:InvoiceLine>/g) ?? []).length).toBe(1);
    expect((built[2]?.xml.match(/<cac:InvoiceLine>/g) ?? []).length).toBe(2);
    expect(built[1]?.xml).toContain('<cbc:PayableAmount currencyID="TRY">527.78</cbc:PayableAmount>');
  });
});
