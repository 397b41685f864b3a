import { describe, expect, it } from "vitest";
import { schemaFileFor, schemaParts, XMLDSIG_NS, XMLDSIG_SCHEMA } from "./artifact";
import { wsdlOperations } from "./wsdl";
import { validateXml } from "./xmllint";

describe("uyumsoft judge, derived from the ground-truth WSDL", () => {
  it("maps the nine schema parts the WSDL imports to their files by target namespace", () => {
    const parts = schemaParts();
    expect(parts.map((p) => p.name)).toEqual([
      "xsd0",
      "xsd1",
      "xsd2",
      "xsd3",
      "xsd4",
      "xsd5",
      "xsd6",
      "xsd7",
      "xsd8",
    ]);
    expect(new Set(parts.map((p) => p.file)).size).toBe(9);
    expect(parts.find((p) => p.name === "xsd0")?.namespace).toBe("http://tempuri.org/");
    expect(schemaFileFor("https://edonusumapi.uyum.com.tr/services/Integration?xsd=xsd0")).toMatch(
      /Integration1\.xsd$/,
    );
    // Only the xmldsig part is compiled from W3C's schema (the vendor's breaks unique particle attribution).
    const swapped = parts.filter((p) => p.validationFile !== p.file);
    expect(swapped.map((p) => [p.namespace, p.validationFile])).toEqual([[XMLDSIG_NS, XMLDSIG_SCHEMA]]);
  });

  it("reads the 52 operations and their SOAP actions with the soap library", async () => {
    const ops = await wsdlOperations();
    expect(ops.size).toBe(52);
    for (const name of [
      "WhoAmI",
      "TestConnection",
      "IsEInvoiceUser",
      "GetEInvoiceUsers",
      "SendInvoice",
      "SaveAsDraft",
      "QueryOutboxInvoiceStatus",
      "GetOutboxInvoicePdf",
      "CancelEArchiveInvoice",
    ]) {
      expect(ops.get(name)?.soapAction).toBe(`http://tempuri.org/IIntegration/${name}`);
    }
  });

  it("compiles the schemas offline and tells valid from invalid envelopes", () => {
    const env = (body: string) =>
      `<s:Envelope xmlns:s="http://schemas.xmlsoap.org/soap/envelope/"><s:Body>${body}</s:Body></s:Envelope>`;
    expect(validateXml(env(`<WhoAmI xmlns="http://tempuri.org/"/>`))).toEqual({ valid: true, errors: [] });
    const bad = validateXml(
      env(
        `<GetEInvoiceUsers xmlns="http://tempuri.org/"><pagination PageIndex="x" PageSize="1"/></GetEInvoiceUsers>`,
      ),
    );
    expect(bad.valid).toBe(false);
    expect(bad.errors.join()).toMatch(/PageIndex/);
    expect(validateXml(env(`<Unknown xmlns="urn:x"/>`)).valid).toBe(false);
  });
});
