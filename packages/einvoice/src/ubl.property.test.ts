import type { Order, OrderLine } from "@ep/connectors";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { computeAmounts, fromKurus } from "./amounts.ts";
import { formatInvoiceNumber } from "./number.ts";
import { sampleOrder, seller } from "./testing/fixtures.ts";
import { buildUblInvoice, type InvoiceHeader, VAT_EXEMPTION_351 } from "./ubl.ts";
import { GibValidator } from "./validation/gib-package.ts";
import { SchematronValidator, totalsSchematron, validateXsd } from "./validation/validate.ts";

/**
 * Generated orders (VAT 0/1/10/20 %, line and order discounts, shipping, TRY and foreign currency,
 * SATIS and IADE, e-Arşiv consumers with or without TCKN, e-Fatura companies and persons) become
 * documents; every one must pass the UBL 2.1 XSD, GİB's current schematron (release 20260312, read from
 * GİB's e-FaturaPaketi.zip) and our arithmetic rules.
 * The validators run once per batch (one xmllint, one JVM per schema).
 */

const DOCUMENTS = 150;
const money = (min: number, max: number) =>
  fc.integer({ min: min * 100, max: max * 100 }).map((k) => k / 100);

const lineArb = fc
  .record({
    sku: fc.stringMatching(/^[A-Z]{3}-\d{2}$/),
    name: fc.constantFrom("Kazak", "Çay Bardağı", "Kitap: Şiir", "Ekmek & Peynir", "Güneş Gözlüğü <UV400>"),
    qty: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.constantFrom(0.5, 1.25, 2.75)),
    unitPrice: money(1, 5000),
    vatRate: fc.constantFrom(0, 1, 10, 20, 20),
    discountShare: fc.constantFrom(0, 0, 0.1, 0.25, 0.5),
  })
  .map(({ discountShare, ...l }): OrderLine => {
    const gross = Math.round(l.unitPrice * l.qty * 100) / 100;
    const discount = Math.round(gross * discountShare * 100) / 100;
    return { ...l, discount, total: Math.round((gross - discount) * 100) / 100 };
  });

const buyerArb = fc.constantFrom(
  { kind: "consumer-unknown" as const },
  { kind: "consumer-tckn" as const, taxNumber: "12345678901" },
  { kind: "company" as const, taxNumber: "9876543210" },
  { kind: "person-efatura" as const, taxNumber: "23456789012" },
);

const caseArb = fc.record({
  lines: fc.array(lineArb, { minLength: 1, maxLength: 5 }),
  shipping: fc.constantFrom(0, 0, 29.99, 49.9),
  orderDiscountShare: fc.constantFrom(0, 0, 0.05, 0.2),
  currency: fc.constantFrom("TRY", "TRY", "USD", "EUR"),
  rate: money(30, 50),
  type: fc.constantFrom("SATIS" as const, "SATIS" as const, "IADE" as const),
  buyer: buyerArb,
  eInvoiceProfile: fc.constantFrom("TEMELFATURA" as const, "TICARIFATURA" as const),
  uuid: fc.uuid({ version: 4 }),
});

type Case = typeof caseArb extends fc.Arbitrary<infer T> ? T : never;

function toOrder(c: Case): Order {
  const base = sampleOrder();
  const goods = c.lines.reduce((a, l) => a + Math.round(l.total * 100), 0);
  const orderDiscountK = Math.floor(goods * c.orderDiscountShare);
  const grandK = goods - orderDiscountK + Math.round(c.shipping * 100);
  const customer = { ...base.customer };
  if ("taxNumber" in c.buyer) customer.taxNumber = c.buyer.taxNumber;
  if (c.buyer.kind === "company")
    Object.assign(customer, { companyName: "Deniz Gıda Ltd. Şti.", isCompany: true, taxOffice: "Konak" });
  return {
    ...base,
    currency: c.currency,
    customer,
    lines: c.lines,
    shipping: { method: "Aras", cost: c.shipping },
    totals: {
      subtotal: goods / 100,
      discount: c.lines.reduce((a, l) => a + l.discount, 0) + orderDiscountK / 100,
      shipping: c.shipping,
      tax: 0,
      grandTotal: Number(fromKurus(grandK)),
    },
  };
}

let gib: GibValidator;
let totals: SchematronValidator;
beforeAll(async () => {
  gib = await GibValidator.current();
  totals = new SchematronValidator(totalsSchematron);
});

describe("generated orders → UBL-TR documents", () => {
  it(`${DOCUMENTS} documents pass the XSD, GİB's schematron and the arithmetic rules`, async () => {
    const cases = fc.sample(caseArb, { numRuns: DOCUMENTS, seed: 20261123 });
    let refused = 0;
    const docs = cases.flatMap((c, i) => {
      const order = toOrder(c);
      const eFatura = c.buyer.kind === "company" || c.buyer.kind === "person-efatura";
      const header: InvoiceHeader = {
        // An IADE goes out as TEMELFATURA whatever the sale was (GİB's InvoiceTypeCodeCheck).
        profile: !eFatura ? "EARSIVFATURA" : c.type === "IADE" ? "TEMELFATURA" : c.eInvoiceProfile,
        type: c.type,
        number: formatInvoiceNumber(c.type === "IADE" ? "IAD" : "ABC", 2026, i + 1),
        uuid: c.uuid,
        issueDate: "2026-11-23",
        issueTime: "14:05:00",
        ...(c.currency !== "TRY" ? { exchangeRate: c.rate } : {}),
        ...(c.type === "IADE" ? { returnOf: { number: "ABC2026000000001", issueDate: "2026-11-01" } } : {}),
      };
      const zeroVat = computeAmounts(order).subtotals.some((sub) => sub.taxK === 0);
      if (zeroVat) {
        // GİB wants an exemption code on a 0,00 VAT subtotal (TaxExemptionReasonCheck): refused without one.
        expect(() => buildUblInvoice(order, seller, header)).toThrow(/0,00/);
        refused += 1;
        header.vatExemption = VAT_EXEMPTION_351;
      }
      const built = buildUblInvoice(order, seller, header);
      // Line-level VAT rounding moves the payable at most a kuruş per line away from the shop's total.
      expect(Math.abs(built.amounts.differenceFromOrderK)).toBeLessThanOrEqual(built.amounts.lines.length);
      return [built.xml];
    });
    expect(docs.length).toBe(DOCUMENTS);
    expect(refused).toBeGreaterThan(0);

    const xsd = await validateXsd(docs);
    const gibResults = await gib.validate(docs);
    const totalResults = await totals.validate(docs);
    const failures = docs.flatMap((_d, i) => {
      const f = [
        ...(xsd[i]?.errors ?? ["no XSD verdict"]),
        ...(gibResults[i]?.failed ?? []).map((a) => `${a.id}: ${a.text}`),
        ...(totalResults[i]?.failed ?? []).map((a) => `${a.id}: ${a.text}`),
      ];
      return f.length ? [`document ${i}: ${f.join(" | ")}`] : [];
    });
    expect(failures).toEqual([]);
    expect(xsd.every((r) => r.valid)).toBe(true);

    const gibEvaluated = new Set(gibResults.flatMap((r) => [...r.evaluated]));
    const totalsEvaluated = new Set(totalResults.flatMap((r) => [...r.evaluated]));
    const gibRules = new Set([...gibEvaluated].map((id) => id.split("#")[0]));
    // Asserts of the rules that can fire on an Invoice (the rest are for envelopes, responses, despatch).
    const invoiceAsserts = new Set(
      [...gib.efatura.compiled.rules].filter(([key]) => /\|(inv:|\/\/)/.test(key)).flatMap(([, ids]) => ids),
    );
    console.log(
      `UBL-TR: ${docs.length} generated documents validated (XSD + GİB's current schematron + arithmetic), ${refused} with a 0,00 VAT subtotal (refused without, issued with exemption 351); ` +
        `GİB asserts evaluated: ${gibEvaluated.size} of ${invoiceAsserts.size} that apply to invoices ` +
        `(${gib.efatura.compiled.asserts.size} in all; ${gibRules.size} distinct rules); ` +
        `arithmetic asserts evaluated: ${totalsEvaluated.size} of ${totals.compiled.asserts.size}`,
    );
    expect(totalsEvaluated.size).toBe(totals.compiled.asserts.size);
    // Profiles, types and currencies all occurred.
    for (const marker of [
      "EARSIVFATURA",
      "TEMELFATURA",
      "TICARIFATURA",
      ">IADE<",
      ">USD<",
      "11111111111",
      ">351<",
    ])
      expect(docs.some((d) => d.includes(marker))).toBe(true);
    // Two JVMs (GİB's e-Fatura and e-Arşiv checks) beside xmllint: minutes on a loaded 2-core box.
  }, 300_000);
});
