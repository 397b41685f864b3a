import { beforeAll, describe, expect, it } from "vitest";
import { saleHeader, sampleOrder, seller } from "../testing/fixtures.ts";
import { buildUblInvoice } from "../ubl.ts";
import { gibUblTrPackage, IZIBIZ_DOCS, mirrorBlob } from "./gib-package.ts";
import { SchematronValidator, totalsSchematron } from "./validate.ts";

/**
 * The totals' convention our arithmetic rules hold documents to, taken from the samples: GİB's
 * TicariFaturaOrnegi.xml (UBL-TR 1.2.1 package) and izibiz's FATURA_9.xml, both with line discounts, write
 * LegalMonetaryTotal/LineExtensionAmount as the lines before their discounts, and LineExtension −
 * AllowanceTotal = TaxExclusive. Our documents did not (LineExtension = TaxExclusive, allowance beside).
 */

/**
 * The convention's asserts. (izibiz's sample also repeats its line discounts as one document-level
 * allowance, "Satır İskonto", so our stricter EP-T2/EP-T9, which count document allowances on top of the
 * lines', do not hold there; our documents carry no document-level allowance.)
 */
const CONVENTION = ["EP-T1", "EP-T8"];
let totals: SchematronValidator;
let samples: Record<string, string>;
beforeAll(async () => {
  totals = new SchematronValidator(totalsSchematron);
  const gib = await gibUblTrPackage(["TicariFaturaOrnegi.xml"]);
  samples = {
    "GİB TicariFaturaOrnegi.xml": gib.get("TicariFaturaOrnegi.xml")?.toString("utf8") ?? "",
    "izibiz FATURA_9.xml": mirrorBlob(
      IZIBIZ_DOCS,
      IZIBIZ_DOCS.discountSample.blob,
      IZIBIZ_DOCS.discountSample.path,
    ).toString("utf8"),
  };
});

describe("totals by the samples' convention", () => {
  it("GİB's and izibiz's discounted samples keep the convention our rules check", async () => {
    const names = Object.keys(samples);
    const results = await totals.validate(Object.values(samples));
    results.forEach((r, i) => {
      expect(r.evaluated.has("EP-T8"), names[i]).toBe(true);
      expect(
        r.failed.filter((f) => CONVENTION.includes(f.id)),
        names[i],
      ).toEqual([]);
      // Both samples have discounts: the convention is not passed vacuously.
      expect(samples[names[i] ?? ""]).toMatch(/<cbc:AllowanceTotalAmount currencyID="TRY">[1-9]/);
    });
  });

  it("our discounted document keeps it; the old way (line extension = tax exclusive) fails it", async () => {
    const { xml, amounts } = buildUblInvoice(sampleOrder(), seller, saleHeader);
    expect(amounts.allowanceK).toBeGreaterThan(0);
    const old = xml.replace(
      /(<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="TRY">)[^<]+/,
      `$1${(amounts.lineExtensionK / 100).toFixed(2)}`,
    );
    const [now, before] = await totals.validate([xml, old]);
    expect(now?.failed).toEqual([]);
    expect(before?.failed.map((f) => f.id).sort()).toEqual(["EP-T1", "EP-T8"]);
  });
});
