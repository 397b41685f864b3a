import type { Order } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { sampleOrder, seller } from "./testing/fixtures.ts";
import {
  buildUblInvoice,
  type InvoiceHeader,
  paidByInvoiceDay,
  type SellerInfo,
  VAT_EXEMPTION_351,
} from "./ubl.ts";

const header: InvoiceHeader = {
  profile: "EARSIVFATURA",
  type: "SATIS",
  number: "ABC2026000000001",
  uuid: "3f1c2a3e-1111-4a2b-9c3d-0123456789ab",
  issueDate: "2026-11-23",
  issueTime: "14:05:00",
};
const company = (overrides: Partial<Order["customer"]> = {}) =>
  sampleOrder({
    customer: {
      ...sampleOrder().customer,
      taxNumber: "9876543210",
      companyName: "Deniz Gıda Ltd. Şti.",
      isCompany: true,
      ...overrides,
    },
  });
const xmlOf = (order: Order, h: Partial<InvoiceHeader> = {}, s: SellerInfo = seller) =>
  buildUblInvoice(order, s, { ...header, ...h }).xml;
/** The text of every `<cbc:name>` in document order. */
const all = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<cbc:${name}(?: [^>]*)?>([^<]*)</cbc:${name}>`, "g"))].map((m) => m[1]);
const section = (xml: string, name: string) => {
  const start = xml.indexOf(`<cac:${name}>`);
  return start < 0 ? "" : xml.slice(start, xml.indexOf(`</cac:${name}>`, start));
};

describe("header guards", () => {
  it("a malformed number, ETTN or date is refused", () => {
    for (const number of ["ABC202600000001", "abc2026000000001", "ABC2026000000001 "])
      expect(() => xmlOf(sampleOrder(), { number })).toThrow(`Geçersiz fatura numarası: ${number}`);
    for (const uuid of [
      "3f1c2a3e-1111-4a2b-9c3d-0123456789a",
      "x3f1c2a3e-1111-4a2b-9c3d-0123456789ab",
      "3f1c2a3e-1111-4a2b-9c3d-0123456789abc",
      "3f1c2a3e11114a2b9c3d0123456789ab",
    ])
      expect(() => xmlOf(sampleOrder(), { uuid })).toThrow(`Geçersiz ETTN: ${uuid}`);
    for (const issueDate of ["2026-11-3", "23.11.2026", "2026-11-23T10:00", "x2026-11-23"])
      expect(() => xmlOf(sampleOrder(), { issueDate })).toThrow(`Geçersiz fatura tarihi: ${issueDate}`);
  });

  it("the seller's VKN/TCKN has 10 or 11 digits", () => {
    for (const taxNumber of ["123456789", "123456789012", "12345678a0", "x1234567890"])
      expect(() => xmlOf(sampleOrder(), {}, { ...seller, taxNumber })).toThrow(
        "Satıcı VKN/TCKN 10 veya 11 hane olmalı",
      );
    expect(xmlOf(sampleOrder(), {}, { ...seller, taxNumber: "12345678901" })).toContain(
      '<cbc:ID schemeID="TCKN">12345678901</cbc:ID>',
    );
  });

  it("a foreign-currency invoice needs a positive, finite exchange rate", () => {
    for (const exchangeRate of [undefined, 0, -41.25, Number.NaN])
      expect(() => xmlOf(sampleOrder({ currency: "eur" }), { exchangeRate })).toThrow(
        "EUR faturası için döviz kuru gerekli",
      );
    const xml = xmlOf(sampleOrder({ currency: "usd" }), { exchangeRate: 0.5 });
    expect(xml).toContain(
      "<cac:PricingExchangeRate><cbc:SourceCurrencyCode>USD</cbc:SourceCurrencyCode><cbc:TargetCurrencyCode>TRY</cbc:TargetCurrencyCode><cbc:CalculationRate>0.5</cbc:CalculationRate><cbc:Date>2026-11-23</cbc:Date></cac:PricingExchangeRate>",
    );
    expect(xml).toContain('<cbc:PayableAmount currencyID="USD">1287.30</cbc:PayableAmount>');
    // A lira invoice needs none, and writes none.
    const lira = xmlOf(sampleOrder(), { exchangeRate: 41 });
    expect(lira).not.toContain("PricingExchangeRate");
    expect(lira).not.toContain("PricingCurrencyCode");
    expect(lira).toContain("<cbc:DocumentCurrencyCode>TRY</cbc:DocumentCurrencyCode>");
  });

  it("an infinite exchange rate is refused (it was written as CalculationRate Infinity)", () => {
    expect(() => xmlOf(sampleOrder({ currency: "EUR" }), { exchangeRate: Number.POSITIVE_INFINITY })).toThrow(
      "EUR faturası için döviz kuru gerekli",
    );
  });

  it("e-Fatura needs the buyer's tax number, on either e-Fatura profile", () => {
    for (const profile of ["TEMELFATURA", "TICARIFATURA"] as const)
      expect(() => xmlOf(sampleOrder(), { profile })).toThrow("e-Fatura alıcısının VKN/TCKN'si olmalı");
    expect(all(xmlOf(company(), { profile: "TICARIFATURA" }), "ProfileID")).toEqual(["TICARIFATURA"]);
  });

  it("a VAT subtotal of 0,00 needs an exemption code; a sale takes only 351", () => {
    const tiny = sampleOrder({
      lines: [{ sku: "A", name: "A", qty: 1, unitPrice: 0.2, vatRate: 1, discount: 0, total: 0.2 }],
      shipping: { cost: 0 },
      totals: { subtotal: 0.2, discount: 0, shipping: 0, tax: 0, grandTotal: 0.2 },
    });
    expect(() => xmlOf(tiny)).toThrow(
      "%1 KDV tutarı 0,00; GİB bu alt toplam için vergi istisna/muafiyet kodu ister (satışta 351)",
    );
    const returnOf = { number: "ABC2026000000001", issueDate: "2026-11-20" };
    expect(() => xmlOf(tiny, { type: "IADE", returnOf })).toThrow(/0,00/);
    expect(() => xmlOf(tiny, { vatExemption: { code: "301", reason: "Mal ihracatı" } })).toThrow(
      "Muafiyet kodu 301 satış faturasında kullanılamaz (GİB: yalnız 351; diğerleri ISTISNA/ÖZEL MATRAH tipinde)",
    );
    const zero = sampleOrder({
      lines: [{ sku: "KTP", name: "Kitap", qty: 1, unitPrice: 50, vatRate: 0, discount: 0, total: 50 }],
      shipping: { cost: 0 },
      totals: { subtotal: 50, discount: 0, shipping: 0, tax: 0, grandTotal: 50 },
    });
    const xml = xmlOf(zero, { vatExemption: VAT_EXEMPTION_351 });
    // On the document's subtotal (GİB's TaxExemptionReasonCheck) and the line's, before the scheme.
    expect(
      xml.split(
        "<cbc:TaxExemptionReasonCode>351</cbc:TaxExemptionReasonCode><cbc:TaxExemptionReason>KDV - İstisna Olmayan Diğer</cbc:TaxExemptionReason><cac:TaxScheme>",
      ).length,
    ).toBe(3);
    expect(xmlOf(tiny, { type: "IADE", returnOf, vatExemption: VAT_EXEMPTION_351 })).toContain(
      "<cbc:InvoiceTypeCode>IADE</cbc:InvoiceTypeCode>",
    );
  });
});

describe("document", () => {
  it("header elements in schema order; the sending type and internet-sale note only on e-Arşiv", () => {
    const xml = xmlOf(sampleOrder(), { issueTime: "14:05:00", notes: ["Sipariş SP-1001"] });
    expect(xml).toContain(
      "<cbc:UBLVersionID>2.1</cbc:UBLVersionID><cbc:CustomizationID>TR1.2</cbc:CustomizationID><cbc:ProfileID>EARSIVFATURA</cbc:ProfileID><cbc:ID>ABC2026000000001</cbc:ID><cbc:CopyIndicator>false</cbc:CopyIndicator><cbc:UUID>3f1c2a3e-1111-4a2b-9c3d-0123456789ab</cbc:UUID><cbc:IssueDate>2026-11-23</cbc:IssueDate><cbc:IssueTime>14:05:00</cbc:IssueTime><cbc:InvoiceTypeCode>SATIS</cbc:InvoiceTypeCode><cbc:Note>Sipariş SP-1001</cbc:Note><cbc:Note>Bu satış internet üzerinden yapılmıştır.</cbc:Note><cbc:DocumentCurrencyCode>TRY</cbc:DocumentCurrencyCode><cbc:LineCountNumeric>4</cbc:LineCountNumeric><cac:OrderReference><cbc:ID>SP-1001</cbc:ID><cbc:IssueDate>2026-11-20</cbc:IssueDate></cac:OrderReference><cac:AdditionalDocumentReference><cbc:ID>1</cbc:ID><cbc:IssueDate>2026-11-23</cbc:IssueDate><cbc:DocumentTypeCode>SendingType</cbc:DocumentTypeCode><cbc:DocumentType>ELEKTRONIK</cbc:DocumentType></cac:AdditionalDocumentReference><cac:Signature>",
    );
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?><Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/,
    );
    expect(xml).toContain(
      ' xmlns:ext="urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ',
    );
    expect(xml).toContain(
      'xsi:schemaLocation="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2 UBL-Invoice-2.1.xsd"',
    );
    expect(xmlOf(sampleOrder(), { sendingType: "KAGIT" })).toContain(
      "<cbc:DocumentTypeCode>SendingType</cbc:DocumentTypeCode><cbc:DocumentType>KAGIT</cbc:DocumentType>",
    );
    const eFatura = xmlOf(company(), {
      issueTime: undefined,
      profile: "TEMELFATURA",
    } as Partial<InvoiceHeader>);
    expect(all(eFatura, "Note")).toEqual([]);
    expect(eFatura).not.toContain("IssueTime");
    expect(eFatura).not.toContain("SendingType");
    expect(eFatura).not.toContain("PaymentMeans");
    expect(eFatura).not.toContain("BillingReference");
  });

  it("the signer, the seller as a company (VKN) with its optional parts", () => {
    const xml = xmlOf(sampleOrder(), {}, { ...seller, website: "https://anadolu.example" });
    expect(section(xml, "Signature")).toBe(
      '<cac:Signature><cbc:ID schemeID="VKN_TCKN">1234567890</cbc:ID><cac:SignatoryParty><cac:PartyIdentification><cbc:ID schemeID="VKN">1234567890</cbc:ID></cac:PartyIdentification><cac:PostalAddress><cbc:StreetName>Moda Cad. No:12</cbc:StreetName><cbc:CitySubdivisionName>Kadıköy</cbc:CitySubdivisionName><cbc:CityName>İstanbul</cbc:CityName><cbc:PostalZone>34710</cbc:PostalZone><cac:Country><cbc:Name>Türkiye</cbc:Name></cac:Country></cac:PostalAddress></cac:SignatoryParty><cac:DigitalSignatureAttachment><cac:ExternalReference><cbc:URI>#Signature</cbc:URI></cac:ExternalReference></cac:DigitalSignatureAttachment>',
    );
    const supplier = section(xml, "AccountingSupplierParty");
    expect(supplier).toContain(
      '<cac:Party><cbc:WebsiteURI>https://anadolu.example</cbc:WebsiteURI><cac:PartyIdentification><cbc:ID schemeID="VKN">1234567890</cbc:ID></cac:PartyIdentification><cac:PartyName><cbc:Name>Anadolu Ticaret A.Ş.</cbc:Name></cac:PartyName>',
    );
    expect(supplier).toContain(
      "<cac:PartyTaxScheme><cac:TaxScheme><cbc:Name>Kadıköy</cbc:Name></cac:TaxScheme></cac:PartyTaxScheme><cac:Contact><cbc:Telephone>+90 216 555 00 00</cbc:Telephone><cbc:ElectronicMail>fatura@anadolu.example</cbc:ElectronicMail></cac:Contact>",
    );
    expect(supplier).not.toContain("Person");
    const bare = section(
      xmlOf(
        company(),
        { profile: "TEMELFATURA" },
        {
          ...seller,
          website: undefined,
          phone: undefined,
          email: undefined,
          address: { ...seller.address, postalCode: undefined },
        },
      ),
      "AccountingSupplierParty",
    );
    expect(bare).not.toContain("Contact");
    expect(bare).not.toContain("PostalZone");
    expect(bare).not.toContain("WebsiteURI");
    const onlyMail = section(
      xmlOf(sampleOrder(), {}, { ...seller, phone: undefined }),
      "AccountingSupplierParty",
    );
    expect(onlyMail).toContain(
      "<cac:Contact><cbc:ElectronicMail>fatura@anadolu.example</cbc:ElectronicMail></cac:Contact>",
    );
  });

  it("a sole proprietor seller (TCKN) is a person: first names, then the family name", () => {
    const s = { ...seller, taxNumber: "12345678901", name: "  Ali Veli Yılmaz " };
    const supplier = section(xmlOf(sampleOrder(), {}, s), "AccountingSupplierParty");
    expect(supplier).not.toContain("PartyName");
    expect(supplier).toContain(
      "<cac:Person><cbc:FirstName>Ali Veli</cbc:FirstName><cbc:FamilyName>Yılmaz</cbc:FamilyName></cac:Person>",
    );
    const spaced = section(
      xmlOf(sampleOrder(), {}, { ...s, name: "Ali \t Yılmaz" }),
      "AccountingSupplierParty",
    );
    expect(spaced).toContain("<cbc:FirstName>Ali</cbc:FirstName><cbc:FamilyName>Yılmaz</cbc:FamilyName>");
    const oneWord = section(xmlOf(sampleOrder(), {}, { ...s, name: "Aliş" }), "AccountingSupplierParty");
    expect(oneWord).toContain(
      "<cac:Person><cbc:FirstName>Aliş</cbc:FirstName><cbc:FamilyName>-</cbc:FamilyName></cac:Person>",
    );
  });

  it("a company buyer: VKN, title, tax office, contact", () => {
    const buyer = section(
      xmlOf(company({ taxOffice: "Konak", phone: "+90 555" }), { profile: "TEMELFATURA" }),
      "AccountingCustomerParty",
    );
    expect(buyer).toBe(
      '<cac:AccountingCustomerParty><cac:Party><cac:PartyIdentification><cbc:ID schemeID="VKN">9876543210</cbc:ID></cac:PartyIdentification><cac:PartyName><cbc:Name>Deniz Gıda Ltd. Şti.</cbc:Name></cac:PartyName><cac:PostalAddress><cbc:StreetName>Atatürk Bulvarı No:5 D:3</cbc:StreetName><cbc:CitySubdivisionName>Çankaya</cbc:CitySubdivisionName><cbc:CityName>Ankara</cbc:CityName><cbc:PostalZone>06420</cbc:PostalZone><cac:Country><cbc:Name>Türkiye</cbc:Name></cac:Country></cac:PostalAddress><cac:PartyTaxScheme><cac:TaxScheme><cbc:Name>Konak</cbc:Name></cac:TaxScheme></cac:PartyTaxScheme><cac:Contact><cbc:Telephone>+90 555</cbc:Telephone><cbc:ElectronicMail>ayse@example.com</cbc:ElectronicMail></cac:Contact></cac:Party>',
    );
    const untitled = section(
      xmlOf(company({ companyName: undefined }), { profile: "TEMELFATURA" }),
      "AccountingCustomerParty",
    );
    expect(untitled).toContain("<cac:PartyName><cbc:Name>Ayşe Yılmaz</cbc:Name></cac:PartyName>");
    const firstOnly = section(
      xmlOf(company({ companyName: "", lastName: "" }), { profile: "TEMELFATURA" }),
      "AccountingCustomerParty",
    );
    expect(firstOnly).toContain("<cac:PartyName><cbc:Name>Ayşe</cbc:Name></cac:PartyName>");
  });

  it("a consumer: a Person, names from the billing address when the customer has none; the address filled in", () => {
    const o = sampleOrder();
    o.customer = { ...o.customer, firstName: "", lastName: "", email: undefined };
    o.billingAddress = {
      ...o.billingAddress,
      line2: "Kat 2",
      district: undefined,
      postalCode: undefined,
      country: "DE",
      phone: undefined,
    };
    const buyer = section(xmlOf(o), "AccountingCustomerParty");
    expect(buyer).toContain(
      '<cac:PartyIdentification><cbc:ID schemeID="TCKN">11111111111</cbc:ID></cac:PartyIdentification><cac:PostalAddress><cbc:StreetName>Atatürk Bulvarı No:5 D:3 Kat 2</cbc:StreetName><cbc:CitySubdivisionName>Ankara</cbc:CitySubdivisionName><cbc:CityName>Ankara</cbc:CityName><cac:Country><cbc:Name>DE</cbc:Name></cac:Country></cac:PostalAddress><cac:Person><cbc:FirstName>Ayşe</cbc:FirstName><cbc:FamilyName>Yılmaz</cbc:FamilyName></cac:Person>',
    );
    expect(buyer).not.toContain("Contact");
    expect(buyer).not.toContain("PartyTaxScheme");
    o.billingAddress = { ...o.billingAddress, firstName: "", lastName: "", country: "", phone: "+90 532" };
    const nameless = section(xmlOf(o), "AccountingCustomerParty");
    expect(nameless).toContain(
      "<cac:Person><cbc:FirstName>-</cbc:FirstName><cbc:FamilyName>-</cbc:FamilyName></cac:Person>",
    );
    expect(nameless).toContain("<cbc:Name>Türkiye</cbc:Name>");
    expect(nameless).toContain("<cac:Contact><cbc:Telephone>+90 532</cbc:Telephone></cac:Contact>");
    const person = section(
      xmlOf(company({ taxNumber: "12345678901", companyName: "X" }), { profile: "TEMELFATURA" }),
      "AccountingCustomerParty",
    );
    expect(person).toContain('<cbc:ID schemeID="TCKN">12345678901</cbc:ID>');
    expect(person).not.toContain("PartyName");
  });

  it("a return refers to its sale", () => {
    const xml = xmlOf(sampleOrder(), {
      type: "IADE",
      returnOf: { number: "ABC2026000000007", issueDate: "2026-11-20" },
    });
    expect(xml).toContain(
      "</cac:OrderReference><cac:BillingReference><cac:InvoiceDocumentReference><cbc:ID>ABC2026000000007</cbc:ID><cbc:IssueDate>2026-11-20</cbc:IssueDate><cbc:DocumentTypeCode>IADE</cbc:DocumentTypeCode></cac:InvoiceDocumentReference></cac:BillingReference><cac:AdditionalDocumentReference>",
    );
  });

  it("totals, and lines numbered from 1 with their allowance, VAT, item and price", () => {
    const xml = xmlOf(sampleOrder());
    expect(section(xml, "LegalMonetaryTotal")).toBe(
      // The samples' convention: line extension before discounts − allowance total = tax exclusive.
      '<cac:LegalMonetaryTotal><cbc:LineExtensionAmount currencyID="TRY">1169.53</cbc:LineExtensionAmount><cbc:TaxExclusiveAmount currencyID="TRY">1086.20</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="TRY">1287.30</cbc:TaxInclusiveAmount><cbc:AllowanceTotalAmount currencyID="TRY">83.33</cbc:AllowanceTotalAmount><cbc:PayableAmount currencyID="TRY">1287.30</cbc:PayableAmount>',
    );
    const lines = xml.split("<cac:InvoiceLine>").slice(1);
    expect(lines.map((l) => all(l, "ID")[0])).toEqual(["1", "2", "3", "4"]);
    expect(lines[0]).toBe(
      '<cbc:ID>1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">2</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="TRY">916.67</cbc:LineExtensionAmount><cac:AllowanceCharge><cbc:ChargeIndicator>false</cbc:ChargeIndicator><cbc:AllowanceChargeReason>İskonto</cbc:AllowanceChargeReason><cbc:Amount currencyID="TRY">83.33</cbc:Amount><cbc:BaseAmount currencyID="TRY">1000.00</cbc:BaseAmount></cac:AllowanceCharge><cac:TaxTotal><cbc:TaxAmount currencyID="TRY">183.33</cbc:TaxAmount><cac:TaxSubtotal><cbc:TaxableAmount currencyID="TRY">916.67</cbc:TaxableAmount><cbc:TaxAmount currencyID="TRY">183.33</cbc:TaxAmount><cbc:Percent>20</cbc:Percent><cac:TaxCategory><cac:TaxScheme><cbc:Name>KDV</cbc:Name><cbc:TaxTypeCode>0015</cbc:TaxTypeCode></cac:TaxScheme></cac:TaxCategory></cac:TaxSubtotal></cac:TaxTotal><cac:Item><cbc:Name>Kazak</cbc:Name><cac:SellersItemIdentification><cbc:ID>KZK-01</cbc:ID></cac:SellersItemIdentification></cac:Item><cac:Price><cbc:PriceAmount currencyID="TRY">500</cbc:PriceAmount></cac:Price></cac:InvoiceLine>',
    );
    expect(lines[1]).not.toContain("AllowanceCharge");
    const o = sampleOrder();
    o.lines[1] = { ...o.lines[1]!, name: "" };
    expect(xmlOf(o).split("<cac:InvoiceLine>")[2]).toContain("<cac:Item><cbc:Name>KTP-07</cbc:Name>");
  });
});

describe("paidByInvoiceDay", () => {
  it("dates an undated payment on the invoice day, and leaves a dated or absent payment alone", () => {
    const order = sampleOrder();
    const undated = { ...order, payment: { means: "KAPIDAODEME" as const } };
    expect(paidByInvoiceDay(undated, "2026-11-20").payment).toEqual({
      means: "KAPIDAODEME",
      date: "2026-11-20",
    });
    expect(undated.payment).toEqual({ means: "KAPIDAODEME" });
    const dated = { ...order, payment: { means: "KREDIKARTI/BANKAKARTI" as const, date: "2026-11-18" } };
    expect(paidByInvoiceDay(dated, "2026-11-20")).toBe(dated);
    const { payment: _p, ...none } = order;
    expect(paidByInvoiceDay(none, "2026-11-20")).toBe(none);
  });
});
