import type { Order } from "@ep/connectors";
import { beforeAll, describe, expect, it } from "vitest";
import { iadeProfile } from "../returns.ts";
import { companyOrder, sampleOrder, seller } from "../testing/fixtures.ts";
import { buildUblInvoice, type InvoiceHeader, internetSaleProblems, VAT_EXEMPTION_351 } from "../ubl.ts";
import { GibValidator } from "./gib-package.ts";
import { groundTruth, SchematronValidator, totalsSchematron, validateXsd } from "./validate.ts";

/**
 * Every document kind the server issues, built by `buildUblInvoice` (what the issuer calls), against the
 * UBL 2.1 XSD, GİB's current package (e-FaturaPaketi schematron 20260312) and our arithmetic rules
 * (totals by the samples' convention: LineExtension − Allowance = TaxExclusive, to the kuruş).
 */

const company = companyOrder;
const consumerUnknown = () => sampleOrder({ customer: { ...sampleOrder().customer, taxNumber: undefined } });
const zeroVat = (o: Order) => ({
  ...o,
  lines: [
    ...o.lines,
    { sku: "KTP-0", name: "Kitap (KDV %0)", qty: 1, unitPrice: 40, vatRate: 0, discount: 0, total: 40 },
  ],
  totals: { ...o.totals, grandTotal: o.totals.grandTotal + 40 },
});
const sale = { number: "WEB2026000000001", issueDate: "2026-11-20" };

let n = 0;
const header = (h: Partial<InvoiceHeader> & Pick<InvoiceHeader, "profile">): InvoiceHeader => {
  n += 1;
  return {
    type: "SATIS",
    number: `WEB2026${String(100 + n).padStart(9, "0")}`,
    uuid: `8d0c7a1e-${String(1000 + n)}-4b3c-8d4e-0123456789ab`,
    issueDate: "2026-11-23",
    issueTime: "14:05:00",
    ...h,
  };
};

/** Kind → order and header, as the issuer would pass them. */
const kinds = (): [string, Order, InvoiceHeader][] => [
  ["e-Arşiv, consumer without TCKN", consumerUnknown(), header({ profile: "EARSIVFATURA" })],
  [
    "e-Arşiv, consumer with TCKN",
    sampleOrder({ customer: { ...sampleOrder().customer, taxNumber: "12345678901" } }),
    header({ profile: "EARSIVFATURA" }),
  ],
  ["e-Arşiv, company not on e-Fatura", company(), header({ profile: "EARSIVFATURA" })],
  [
    "e-Arşiv, paper delivery, payment intermediary",
    sampleOrder({ payment: { means: "ODEMEARACISI", date: "2026-11-20", agent: "iyzico" } }),
    header({ profile: "EARSIVFATURA", sendingType: "KAGIT" }),
  ],
  ["e-Arşiv, not dispatched yet", sampleOrder({ delivery: undefined }), header({ profile: "EARSIVFATURA" })],
  ["TEMELFATURA", company(), header({ profile: "TEMELFATURA" })],
  ["TICARIFATURA", company(), header({ profile: "TICARIFATURA" })],
  [
    "IADE of an e-Arşiv",
    sampleOrder(),
    header({ profile: iadeProfile("EARSIVFATURA"), type: "IADE", returnOf: sale }),
  ],
  [
    "IADE of a TEMELFATURA",
    company(),
    header({ profile: iadeProfile("TEMELFATURA"), type: "IADE", returnOf: sale }),
  ],
  [
    "IADE of a TICARIFATURA",
    company(),
    header({ profile: iadeProfile("TICARIFATURA"), type: "IADE", returnOf: sale }),
  ],
  [
    "0 % VAT with exemption 351 (e-Arşiv)",
    zeroVat(sampleOrder()),
    header({ profile: "EARSIVFATURA", vatExemption: VAT_EXEMPTION_351 }),
  ],
  [
    "0 % VAT with exemption 351 (TEMELFATURA)",
    zeroVat(company()),
    header({ profile: "TEMELFATURA", vatExemption: VAT_EXEMPTION_351 }),
  ],
  [
    "USD at a rate (e-Arşiv)",
    sampleOrder({ currency: "USD" }),
    header({ profile: "EARSIVFATURA", exchangeRate: 34.5123 }),
  ],
  [
    "EUR at a rate (TICARIFATURA)",
    company({ currency: "EUR" }),
    header({ profile: "TICARIFATURA", exchangeRate: 37.25 }),
  ],
];

let gib: GibValidator;
let totals: SchematronValidator;
beforeAll(async () => {
  gib = await GibValidator.current();
  totals = new SchematronValidator(totalsSchematron);
});

describe("every document kind, through the builder the issuer calls", () => {
  it("passes the XSD, GİB's current package and the arithmetic rules", async () => {
    const built = kinds().map(([kind, order, h]) => ({ kind, ...buildUblInvoice(order, seller, h) }));
    const xmls = built.map((b) => b.xml);
    const [xsd, gibResults, totalResults] = await Promise.all([
      validateXsd(xmls),
      gib.validate(xmls),
      totals.validate(xmls),
    ]);
    const failures = built.flatMap((b, i) => {
      const f = [
        ...(xsd[i]?.errors ?? ["no XSD verdict"]),
        ...(gibResults[i]?.failed ?? []).map((a) => `${a.id}: ${a.text}`),
        ...(totalResults[i]?.failed ?? []).map((a) => `${a.id}: ${a.text}`),
      ];
      return f.length ? [`${b.kind}: ${f.join(" | ")}`] : [];
    });
    expect(failures).toEqual([]);
    // GİB's rules did fire on each (not an empty pass), and all 15 arithmetic asserts were evaluated.
    for (const r of gibResults) expect(r.evaluated.size).toBeGreaterThan(60);
    expect(new Set(totalResults.flatMap((r) => [...r.evaluated])).size).toBe(totals.compiled.asserts.size);
    // The samples' convention, to the kuruş, on every kind.
    for (const b of built) {
      const total = (name: string) =>
        Number(
          new RegExp(`<cbc:${name} currencyID="[A-Z]+">([^<]+)<`).exec(
            b.xml.slice(b.xml.indexOf("<cac:LegalMonetaryTotal>")),
          )?.[1],
        );
      expect(
        Math.round(total("LineExtensionAmount") * 100) - Math.round(total("AllowanceTotalAmount") * 100),
      ).toBe(Math.round(total("TaxExclusiveAmount") * 100));
      expect(Math.round(total("TaxExclusiveAmount") * 100)).toBe(b.amounts.lineExtensionK);
    }
  });

  it("a TICARIFATURA return is refused by the builder; GİB's current package rejects it, the old one did not", async () => {
    const h = header({ profile: "TICARIFATURA", type: "IADE", returnOf: sale });
    expect(() => buildUblInvoice(company(), seller, h)).toThrow(
      "İade faturası TICARIFATURA senaryosunda düzenlenemez; TEMELFATURA olmalı",
    );
    // The document the server used to issue (the sale's profile copied onto the return).
    const copied = buildUblInvoice(company(), seller, { ...h, profile: "TEMELFATURA" }).xml.replace(
      "<cbc:ProfileID>TEMELFATURA</cbc:ProfileID>",
      "<cbc:ProfileID>TICARIFATURA</cbc:ProfileID>",
    );
    const [current] = await gib.validate([copied]);
    expect(current?.failed.map((f) => f.id)).toEqual(["InvoiceTypeCodeCheck#2"]);
    const [old] = await new SchematronValidator(groundTruth.gibSchematron).validate([copied]);
    expect(old?.failed).toEqual([]);
  });
});

describe("e-Arşiv for an internet sale", () => {
  it("carries the issue time, sending type, web address, payment means and date, carrier and dispatch date", () => {
    const { xml } = buildUblInvoice(
      sampleOrder({
        payment: { means: "KREDIKARTI/BANKAKARTI", date: "2026-11-20" },
        delivery: {
          carrier: "Yurtiçi Kargo",
          carrierTaxNumber: "9860008925",
          dispatchDate: "2026-11-21",
          trackingNumber: "YK1",
        },
      }),
      seller,
      header({ profile: "EARSIVFATURA" }),
    );
    expect(xml).toContain("<cbc:IssueTime>14:05:00</cbc:IssueTime>");
    expect(xml).toContain("<cbc:Note>Bu satış internet üzerinden yapılmıştır.</cbc:Note>");
    expect(xml).toContain(
      "<cac:AdditionalDocumentReference><cbc:ID>1</cbc:ID><cbc:IssueDate>2026-11-23</cbc:IssueDate><cbc:DocumentTypeCode>SendingType</cbc:DocumentTypeCode><cbc:DocumentType>ELEKTRONIK</cbc:DocumentType></cac:AdditionalDocumentReference>",
    );
    expect(xml).toContain("<cac:Party><cbc:WebsiteURI>https://www.anadolu.example</cbc:WebsiteURI>");
    expect(xml).toContain(
      '</cac:AccountingCustomerParty><cac:Delivery><cbc:TrackingID>YK1</cbc:TrackingID><cac:CarrierParty><cac:PartyIdentification><cbc:ID schemeID="VKN">9860008925</cbc:ID></cac:PartyIdentification><cac:PartyName><cbc:Name>Yurtiçi Kargo</cbc:Name></cac:PartyName></cac:CarrierParty><cac:Despatch><cbc:ActualDespatchDate>2026-11-21</cbc:ActualDespatchDate></cac:Despatch></cac:Delivery><cac:PaymentMeans><cbc:PaymentMeansCode>48</cbc:PaymentMeansCode><cbc:PaymentDueDate>2026-11-20</cbc:PaymentDueDate><cbc:InstructionNote>KREDIKARTI/BANKAKARTI</cbc:InstructionNote></cac:PaymentMeans>',
    );
    const agent = buildUblInvoice(
      sampleOrder({ payment: { means: "ODEMEARACISI", date: "2026-11-20", agent: "iyzico" } }),
      seller,
      header({ profile: "EARSIVFATURA" }),
    ).xml;
    expect(agent).toContain(
      "<cbc:PaymentMeansCode>ZZZ</cbc:PaymentMeansCode><cbc:PaymentDueDate>2026-11-20</cbc:PaymentDueDate><cbc:InstructionNote>ODEMEARACISI; Ödeme aracısı: iyzico</cbc:InstructionNote>",
    );
  });

  it("what is missing is left out and named in Turkish for the issuer to refuse; what is malformed is refused", () => {
    const h = header({ profile: "EARSIVFATURA" });
    const noSite = { ...seller, website: undefined };
    expect(internetSaleProblems(sampleOrder(), noSite)).toEqual([
      "İnternet satışı e-Arşiv faturası için satıcının web adresi gerekli (Ayarlar › Firma)",
    ]);
    expect(buildUblInvoice(sampleOrder(), noSite, h).xml).not.toContain("WebsiteURI");
    expect(internetSaleProblems(sampleOrder({ payment: undefined }), { ...seller, website: " " })).toEqual([
      "İnternet satışı e-Arşiv faturası için satıcının web adresi gerekli (Ayarlar › Firma)",
      "İnternet satışı e-Arşiv faturası için ödeme şekli gerekli (siparişte yok)",
    ]);
    expect(buildUblInvoice(sampleOrder({ payment: undefined }), seller, h).xml).not.toContain("PaymentMeans");
    expect(internetSaleProblems(sampleOrder({ payment: { means: "EFT/HAVALE" } }), seller)).toEqual([
      "İnternet satışı e-Arşiv faturası için ödeme tarihi gerekli (siparişte yok)",
    ]);
    expect(internetSaleProblems(sampleOrder(), seller)).toEqual([]);
    // Malformed data would break the document: refused by the builder itself.
    expect(() =>
      buildUblInvoice(sampleOrder({ payment: { means: "EFT/HAVALE", date: "20.11.2026" } }), seller, h),
    ).toThrow("Geçersiz ödeme tarihi: 20.11.2026");
    expect(() =>
      buildUblInvoice(sampleOrder({ delivery: { carrier: "Aras", carrierTaxNumber: "123" } }), seller, h),
    ).toThrow("Taşıyıcının VKN/TCKN'si 10 veya 11 hane olmalı");
    expect(() =>
      buildUblInvoice(sampleOrder(), seller, { ...h, issueTime: undefined } as InvoiceHeader),
    ).toThrow("e-Arşiv faturasında düzenleme saati zorunlu");
    expect(() => buildUblInvoice(sampleOrder(), seller, { ...h, issueTime: "25:00:00" })).toThrow(
      "Geçersiz fatura saati: 25:00:00",
    );
    // An e-Arşiv that is no internet sale carries none of it; an e-Fatura needs none of it.
    const plain = buildUblInvoice(
      sampleOrder({ payment: undefined }),
      { ...seller, website: undefined },
      { ...h, internetSale: false },
    ).xml;
    expect(plain).not.toContain("PaymentMeans");
    expect(plain).not.toContain("internet üzerinden");
    expect(plain).toContain("SendingType");
    expect(
      buildUblInvoice(company({ payment: undefined }), seller, header({ profile: "TEMELFATURA" })).xml,
    ).not.toContain("PaymentMeans");
  });
});
