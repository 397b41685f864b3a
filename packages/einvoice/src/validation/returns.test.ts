import { beforeAll, describe, expect, it } from "vitest";
import { invoiceDocument } from "../document.ts";
import { iadeProfile } from "../returns.ts";
import { companyOrder, sampleOrder, seller } from "../testing/fixtures.ts";
import { buildUblInvoice } from "../ubl.ts";
import { GibValidator } from "./gib-package.ts";
import { SchematronValidator, totalsSchematron, validateXsd } from "./validate.ts";

/**
 * IADE invoices as the invoice flow issues them for a cancelled / returned shop order: the same order, a new
 * number and ETTN, InvoiceTypeCode IADE and a BillingReference to the sale. Both layers (UBL 2.1 XSD, GİB's
 * schematron + our arithmetic rules) in the same batch as every other generated document.
 */

const sale = { number: "WEB2026000000007", issueDate: "2026-11-20" };
const consumer = sampleOrder();
const company = companyOrder();
const headers = [
  { order: consumer, profile: "EARSIVFATURA" as const, uuid: "8d0c7a1e-2222-4b3c-8d4e-0123456789ab" },
  { order: company, profile: "TEMELFATURA" as const, uuid: "8d0c7a1e-3333-4b3c-8d4e-0123456789ab" },
  // A TICARIFATURA's return goes as TEMELFATURA (GİB's current schematron, InvoiceTypeCodeCheck).
  { order: company, profile: iadeProfile("TICARIFATURA"), uuid: "8d0c7a1e-4444-4b3c-8d4e-0123456789ab" },
].map((h, i) => ({
  order: h.order,
  header: {
    profile: h.profile,
    type: "IADE" as const,
    number: `WEB2026${String(100 + i).padStart(9, "0")}`,
    uuid: h.uuid,
    issueDate: "2026-11-23",
    issueTime: "14:05:00",
    returnOf: sale,
  },
}));
// Built inside each test, not at import: a mutation tool then knows which tests run the builder.
const buildAll = () => headers.map((h) => ({ ...h, ...buildUblInvoice(h.order, seller, h.header) }));

let gib: GibValidator;
let totals: SchematronValidator;
beforeAll(async () => {
  gib = await GibValidator.current();
  totals = new SchematronValidator(totalsSchematron);
});

describe("IADE (return) invoices", () => {
  it("refer to the returned sale by BillingReference / InvoiceDocumentReference", () => {
    for (const b of buildAll()) {
      expect(b.xml).toContain("<cbc:InvoiceTypeCode>IADE</cbc:InvoiceTypeCode>");
      expect(b.xml).toContain(
        `<cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>${sale.number}</cbc:ID><cbc:IssueDate>${sale.issueDate}</cbc:IssueDate><cbc:DocumentTypeCode>IADE</cbc:DocumentTypeCode>`,
      );
      // The data form for JSON providers carries the same reference and the same amounts.
      const doc = invoiceDocument(b.order, b.header, b.amounts);
      expect(doc.returnOf).toEqual(sale);
      expect(doc.lines.reduce((s, l) => s + l.netK + l.taxK, 0)).toBe(b.amounts.payableK);
    }
  });

  it("pass the UBL 2.1 schema, GİB's schematron and our arithmetic rules", async () => {
    const xmls = buildAll().map((b) => b.xml);
    expect(await validateXsd(xmls)).toEqual(xmls.map(() => ({ valid: true, errors: [] })));
    for (const r of await gib.validate(xmls)) expect(r.failed).toEqual([]);
    for (const r of await totals.validate(xmls)) expect(r.failed).toEqual([]);
  });

  it("an IADE without its BillingReference is refused by the builder", () => {
    const [first] = headers;
    if (!first) throw new Error("no header");
    const { returnOf: _drop, ...bare } = first.header;
    expect(() => buildUblInvoice(first.order, seller, bare)).toThrow(/İade/);
  });
});
