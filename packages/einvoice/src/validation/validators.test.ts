import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { companyOrder, seller } from "../testing/fixtures.ts";
import { buildUblInvoice } from "../ubl.ts";
import {
  groundTruth,
  invoiceOfEnvelope,
  SchematronValidator,
  totalsSchematron,
  validateXsd,
} from "./validate.ts";

/**
 * The validators themselves: GİB's own sample passes, broken documents fail, each for its reason.
 * GİB's sample (2013) is a UBL 2.0 / UBL-TR 1.0 document in TRL; the 1.2 rules reject exactly its
 * version markers, and nothing else. The same document with its markers moved to 1.2 passes them all.
 */

const sample = readFileSync(groundTruth.gibSample, "utf8");
const VERSION_MARKERS_OF_2013 = [
  "CurrencyCodeCheck#1", // TRL, the pre-2005 lira
  "CustomizationIDCheck#1", // TR1.0
  "DocumentCheck#3", // envelope schemaLocation PackageProxy.xsd
  "ProfileIDCheck#4", // Invoice schemaLocation UBLTR-Invoice-2.0.xsd
  "TypeVersionCheck#1", // envelope TypeVersion 1.0
  "UBLVersionIDCheck#1", // UBL 2.0
];
const sampleAt12 = sample
  .replace("<cbc:UBLVersionID>2.0<", "<cbc:UBLVersionID>2.1<")
  .replace("<cbc:CustomizationID>TR1.0<", "<cbc:CustomizationID>TR1.2<")
  .replace(/>TRL</g, ">TRY<")
  .replace(/currencyID="TRL"/g, 'currencyID="TRY"')
  .replace("UBLTR-Invoice-2.0.xsd", "UBL-Invoice-2.1.xsd")
  .replace("PackageProxy.xsd", "PackageProxy_1_2.xsd")
  .replace("<sh:TypeVersion>1.0<", "<sh:TypeVersion>1.2<");

const header = {
  profile: "TEMELFATURA" as const,
  type: "SATIS" as const,
  number: "ABC2026000000001",
  uuid: "3f1c2a3e-1111-4a2b-9c3d-0123456789ab",
  issueDate: "2026-11-23",
  issueTime: "14:05:00",
};
const company = companyOrder();
// Built inside each test, not at import: a mutation tool then knows which tests run the builder.
const buildGood = () => buildUblInvoice(company, seller, header).xml;

let gib: SchematronValidator;
let totals: SchematronValidator;
beforeAll(() => {
  gib = new SchematronValidator(groundTruth.gibSchematron);
  totals = new SchematronValidator(totalsSchematron);
});

describe("GİB's sample TemelFaturaOrnegi.xml", () => {
  it("its Invoice validates against the UBL 2.1 Invoice schema", async () => {
    expect(await validateXsd([invoiceOfEnvelope(sample), invoiceOfEnvelope(sampleAt12)])).toEqual([
      { valid: true, errors: [] },
      { valid: true, errors: [] },
    ]);
  });

  it("GİB's rules reject only its 2013 version markers; at 1.2 it passes every rule", async () => {
    const [asPublished, at12] = await gib.validate([sample, sampleAt12]);
    expect(asPublished?.failed.map((f) => f.id).sort()).toEqual(VERSION_MARKERS_OF_2013);
    expect(at12?.failed).toEqual([]);
    // The envelope, header, package and invoice patterns all ran over it.
    expect(at12?.evaluated.size).toBeGreaterThan(100);
  });

  it("its amounts add up under our arithmetic rules", async () => {
    const [result] = await totals.validate([invoiceOfEnvelope(sample)]);
    expect(result?.failed).toEqual([]);
    expect(result?.evaluated.size).toBe(totals.compiled.asserts.size);
  });
});

describe("broken documents fail", () => {
  it("a wrong VAT total fails the schematron", async () => {
    const good = buildGood();
    const wrongTotal = good.replace(
      /(<cac:TaxTotal><cbc:TaxAmount currencyID="TRY">)([\d.]+)(<)/,
      (_m, a: string, v: string, b: string) => `${a}${(Number(v) + 1).toFixed(2)}${b}`,
    );
    const threeDecimals = good.replace(
      /(<cac:TaxTotal><cbc:TaxAmount currencyID="TRY">)([\d.]+)(<)/,
      (_m, a: string, v: string, b: string) => `${a}${v}1${b}`,
    );
    expect(wrongTotal).not.toBe(good);
    const [okTotals, wrongTotals] = await totals.validate([good, wrongTotal]);
    expect(okTotals?.failed).toEqual([]);
    expect(wrongTotals?.failed.map((f) => f.id).sort()).toEqual(["EP-T3", "EP-T4", "EP-T5"]);
    const [okGib, wrongFormat] = await gib.validate([good, threeDecimals]);
    expect(okGib?.failed).toEqual([]);
    expect(wrongFormat?.failed.map((f) => f.id)).toEqual(["decimalCheck#1"]);
  });

  it("a wrong line VAT is caught", async () => {
    const good = buildGood();
    const wrongLine = good.replace(
      /(<cac:InvoiceLine>.*?<cac:TaxTotal><cbc:TaxAmount currencyID="TRY">)([\d.]+)(<)/,
      (_m, a: string, v: string, b: string) => `${a}${(Number(v) + 0.01).toFixed(2)}${b}`,
    );
    const [result] = await totals.validate([wrongLine]);
    expect(result?.failed.map((f) => f.id)).toContain("EP-L4");
  });

  it("a structurally broken document fails the XSD", async () => {
    const good = buildGood();
    const misplaced = good
      .replace(/<cbc:CopyIndicator>false<\/cbc:CopyIndicator>/, "")
      .replace(
        "<cbc:DocumentCurrencyCode>",
        "<cbc:CopyIndicator>false</cbc:CopyIndicator><cbc:DocumentCurrencyCode>",
      );
    const [ok, broken] = await validateXsd([good, misplaced]);
    expect(ok).toEqual({ valid: true, errors: [] });
    expect(broken?.valid).toBe(false);
    expect(broken?.errors.join("\n")).toMatch(/CopyIndicator/);
  });

  it("GİB's rules reject a malformed invoice number and a VKN of the wrong length", async () => {
    const good = buildGood();
    const badNumber = good.replace("<cbc:ID>ABC2026000000001<", "<cbc:ID>AB2026000000001<");
    const badVkn = good.replace(/schemeID="VKN">9876543210</, 'schemeID="VKN">987654321<');
    const [n, v] = await gib.validate([badNumber, badVkn]);
    expect(n?.failed.map((f) => f.id)).toEqual(["InvoiceIDCheck#1"]);
    expect(v?.failed.map((f) => f.id)).toContain("PartyIdentificationTCKNVKNCheck#1");
  });
});
