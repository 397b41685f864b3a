import type { Address, Order } from "@ep/connectors";
import { create } from "xmlbuilder2";
import type { XMLBuilder } from "xmlbuilder2/lib/interfaces.js";
import { type AmountOptions, computeAmounts, fromKurus, type InvoiceAmounts } from "./amounts.ts";
import { INVOICE_NUMBER } from "./number.ts";
import { buyerTaxNumber, type InvoiceProfile, UNKNOWN_CONSUMER_TCKN } from "./profile.ts";

/**
 * UBL-TR 1.2 invoice (UBL 2.1 `Invoice`) from a canonical order. Element order follows the UBL 2.1
 * schema sequences (the XSD test fails on any misplaced element); GİB's rules are checked by the
 * schematron test. The provider signs the document, so no `ext:UBLExtensions` signature is written.
 */

const NS = {
  inv: "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  ext: "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
  xsi: "http://www.w3.org/2001/XMLSchema-instance",
};

export type InvoiceTypeCode = "SATIS" | "IADE";

/** The seller, from the company settings (Ayarlar › Firma). */
export interface SellerInfo {
  /** VKN (10 digits) or, for a sole proprietor, TCKN (11 digits). */
  taxNumber: string;
  /** Title (ünvan); for a TCKN seller "Ad Soyad". */
  name: string;
  taxOffice: string;
  address: PartyAddress;
  email?: string;
  phone?: string;
  website?: string;
}

export interface PartyAddress {
  street: string;
  /** İlçe. */
  district: string;
  city: string;
  postalCode?: string;
  /** Country name as printed ("Türkiye"). */
  country: string;
}

export interface InvoiceHeader {
  profile: InvoiceProfile;
  type: InvoiceTypeCode;
  /** GİB number, e.g. ABC2026000000001 (allocated by the server's numbering). */
  number: string;
  /** ETTN. */
  uuid: string;
  /** YYYY-MM-DD (Europe/Istanbul). */
  issueDate: string;
  /** HH:MM:SS. */
  issueTime?: string;
  /** TRY per one unit of the order's currency; required when the order is not in TRY. */
  exchangeRate?: number;
  /** The invoice a return (IADE) refers to. */
  returnOf?: { number: string; issueDate: string };
  notes?: string[];
}

export interface BuiltInvoice {
  xml: string;
  amounts: InvoiceAmounts;
}

const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** UN/ECE rec. 20 "one" (adet); the order line carries no unit. */
const UNIT_PIECE = "C62";

export function buildUblInvoice(
  order: Order,
  seller: SellerInfo,
  header: InvoiceHeader,
  options: AmountOptions = {},
): BuiltInvoice {
  if (!INVOICE_NUMBER.test(header.number)) throw new RangeError(`Geçersiz fatura numarası: ${header.number}`);
  if (!UUID.test(header.uuid)) throw new RangeError(`Geçersiz ETTN: ${header.uuid}`);
  if (!DATE.test(header.issueDate)) throw new RangeError(`Geçersiz fatura tarihi: ${header.issueDate}`);
  if (!/^(\d{10}|\d{11})$/.test(seller.taxNumber))
    throw new RangeError("Satıcı VKN/TCKN 10 veya 11 hane olmalı");
  const currency = order.currency.toUpperCase();
  // Finite too: an Infinity rate passed `> 0` and was written as CalculationRate "Infinity".
  const rate = header.exchangeRate ?? Number.NaN;
  if (currency !== "TRY" && !(Number.isFinite(rate) && rate > 0))
    throw new RangeError(`${currency} faturası için döviz kuru gerekli`);
  const buyerNumber = buyerTaxNumber(order.customer);
  if (header.profile !== "EARSIVFATURA" && !buyerNumber)
    throw new RangeError("e-Fatura alıcısının VKN/TCKN'si olmalı");
  if (header.type === "IADE" && !header.returnOf)
    throw new RangeError("İade faturası iade edilen faturayı belirtmeli");

  const amounts = computeAmounts(order, options);
  // GİB: a VAT subtotal of 0.00 needs an exemption reason, and exemption codes need another invoice
  // type (ISTISNA...). A sale whose VAT at a rate rounds to zero kuruş cannot be a SATIS invoice.
  const zero = amounts.subtotals.find((s) => s.taxK === 0);
  if (zero && header.type === "SATIS")
    throw new RangeError(
      `%${zero.vatRate} KDV tutarı 0,00'a yuvarlanıyor; bu satış e-faturası GİB kurallarına göre kesilemez`,
    );
  const money = (el: XMLBuilder, name: string, k: number) =>
    el.ele(NS.cbc, `cbc:${name}`, { currencyID: currency }).txt(fromKurus(k));

  const doc = create({ version: "1.0", encoding: "UTF-8" });
  const inv = doc.ele(NS.inv, "Invoice", {
    "xmlns:cac": NS.cac,
    "xmlns:cbc": NS.cbc,
    "xmlns:ext": NS.ext,
    "xmlns:xsi": NS.xsi,
    "xsi:schemaLocation": `${NS.inv} UBL-Invoice-2.1.xsd`,
  });
  const cbc = (parent: XMLBuilder, name: string, value: string, attrs?: Record<string, string>) =>
    parent.ele(NS.cbc, `cbc:${name}`, attrs).txt(value);
  const cac = (parent: XMLBuilder, name: string) => parent.ele(NS.cac, `cac:${name}`);

  cbc(inv, "UBLVersionID", "2.1");
  cbc(inv, "CustomizationID", "TR1.2");
  cbc(inv, "ProfileID", header.profile);
  cbc(inv, "ID", header.number);
  cbc(inv, "CopyIndicator", "false");
  cbc(inv, "UUID", header.uuid);
  cbc(inv, "IssueDate", header.issueDate);
  if (header.issueTime) cbc(inv, "IssueTime", header.issueTime);
  cbc(inv, "InvoiceTypeCode", header.type);
  for (const note of header.notes ?? []) cbc(inv, "Note", note);
  if (header.profile === "EARSIVFATURA") cbc(inv, "Note", "Gönderim Şekli: ELEKTRONIK");
  cbc(inv, "DocumentCurrencyCode", currency);
  if (currency !== "TRY") cbc(inv, "PricingCurrencyCode", currency);
  cbc(inv, "LineCountNumeric", String(amounts.lines.length));
  const orderRef = cac(inv, "OrderReference");
  cbc(orderRef, "ID", order.orderNo);
  cbc(orderRef, "IssueDate", order.createdAt.slice(0, 10));
  if (header.returnOf) {
    const ref = cac(cac(inv, "BillingReference"), "InvoiceDocumentReference");
    cbc(ref, "ID", header.returnOf.number);
    cbc(ref, "IssueDate", header.returnOf.issueDate);
    cbc(ref, "DocumentTypeCode", "IADE");
  }

  // GİB asks for the signer's identity here; the provider adds the XAdES signature itself.
  const signature = cac(inv, "Signature");
  cbc(signature, "ID", seller.taxNumber, { schemeID: "VKN_TCKN" });
  const signatory = cac(signature, "SignatoryParty");
  cbc(cac(signatory, "PartyIdentification"), "ID", seller.taxNumber, {
    schemeID: idScheme(seller.taxNumber),
  });
  postalAddress(cac(signatory, "PostalAddress"), seller.address);
  cbc(cac(cac(signature, "DigitalSignatureAttachment"), "ExternalReference"), "URI", "#Signature");

  // Seller.
  const supplier = cac(cac(inv, "AccountingSupplierParty"), "Party");
  if (seller.website) cbc(supplier, "WebsiteURI", seller.website);
  cbc(cac(supplier, "PartyIdentification"), "ID", seller.taxNumber, { schemeID: idScheme(seller.taxNumber) });
  if (idScheme(seller.taxNumber) === "VKN") cbc(cac(supplier, "PartyName"), "Name", seller.name);
  postalAddress(cac(supplier, "PostalAddress"), seller.address);
  cbc(cac(cac(supplier, "PartyTaxScheme"), "TaxScheme"), "Name", seller.taxOffice);
  contact(supplier, seller.phone, seller.email);
  if (idScheme(seller.taxNumber) === "TCKN") person(supplier, ...splitName(seller.name));

  // Buyer.
  const customer = order.customer;
  const buyerId = buyerNumber ?? UNKNOWN_CONSUMER_TCKN;
  const buyer = cac(cac(inv, "AccountingCustomerParty"), "Party");
  cbc(cac(buyer, "PartyIdentification"), "ID", buyerId, { schemeID: idScheme(buyerId) });
  if (idScheme(buyerId) === "VKN")
    cbc(
      cac(buyer, "PartyName"),
      "Name",
      customer.companyName || `${customer.firstName} ${customer.lastName}`.trim(),
    );
  postalAddress(cac(buyer, "PostalAddress"), fromOrderAddress(order.billingAddress));
  if (customer.taxOffice) cbc(cac(cac(buyer, "PartyTaxScheme"), "TaxScheme"), "Name", customer.taxOffice);
  contact(buyer, customer.phone ?? order.billingAddress.phone, customer.email);
  if (idScheme(buyerId) === "TCKN")
    person(
      buyer,
      customer.firstName || order.billingAddress.firstName,
      customer.lastName || order.billingAddress.lastName,
    );

  if (currency !== "TRY") {
    const rate = cac(inv, "PricingExchangeRate");
    cbc(rate, "SourceCurrencyCode", currency);
    cbc(rate, "TargetCurrencyCode", "TRY");
    cbc(rate, "CalculationRate", String(header.exchangeRate));
    cbc(rate, "Date", header.issueDate);
  }

  // Document VAT: one subtotal per rate, sums of the lines' rounded VAT.
  const taxTotal = cac(inv, "TaxTotal");
  money(taxTotal, "TaxAmount", amounts.taxK);
  for (const s of amounts.subtotals) vatSubtotal(taxTotal, s.taxableK, s.taxK, s.vatRate);

  const totals = cac(inv, "LegalMonetaryTotal");
  money(totals, "LineExtensionAmount", amounts.lineExtensionK);
  money(totals, "TaxExclusiveAmount", amounts.lineExtensionK);
  money(totals, "TaxInclusiveAmount", amounts.lineExtensionK + amounts.taxK);
  // Discounts sit on the lines (they lower each VAT base); the total shows them for the reader.
  money(totals, "AllowanceTotalAmount", amounts.allowanceK);
  money(totals, "PayableAmount", amounts.payableK);

  amounts.lines.forEach((line, index) => {
    const el = cac(inv, "InvoiceLine");
    cbc(el, "ID", String(index + 1));
    cbc(el, "InvoicedQuantity", String(line.qty), { unitCode: UNIT_PIECE });
    money(el, "LineExtensionAmount", line.netK);
    if (line.discountK > 0) {
      const allowance = cac(el, "AllowanceCharge");
      cbc(allowance, "ChargeIndicator", "false");
      cbc(allowance, "AllowanceChargeReason", "İskonto");
      money(allowance, "Amount", line.discountK);
      money(allowance, "BaseAmount", line.baseK);
    }
    const lineTax = cac(el, "TaxTotal");
    money(lineTax, "TaxAmount", line.taxK);
    vatSubtotal(lineTax, line.netK, line.taxK, line.vatRate);
    const item = cac(el, "Item");
    cbc(item, "Name", line.name || line.sku);
    cbc(cac(item, "SellersItemIdentification"), "ID", line.sku);
    el.ele(NS.cac, "cac:Price").ele(NS.cbc, "cbc:PriceAmount", { currencyID: currency }).txt(line.unitPrice);
  });

  return { xml: doc.end({ prettyPrint: false }), amounts };

  function vatSubtotal(parent: XMLBuilder, taxableK: number, taxK: number, rate: number) {
    const sub = cac(parent, "TaxSubtotal");
    money(sub, "TaxableAmount", taxableK);
    money(sub, "TaxAmount", taxK);
    cbc(sub, "Percent", String(rate));
    const scheme = cac(cac(sub, "TaxCategory"), "TaxScheme");
    cbc(scheme, "Name", "KDV");
    cbc(scheme, "TaxTypeCode", "0015");
  }
  function postalAddress(el: XMLBuilder, a: PartyAddress) {
    cbc(el, "StreetName", a.street);
    cbc(el, "CitySubdivisionName", a.district);
    cbc(el, "CityName", a.city);
    if (a.postalCode) cbc(el, "PostalZone", a.postalCode);
    cbc(cac(el, "Country"), "Name", a.country);
  }
  function contact(party: XMLBuilder, phone?: string, email?: string) {
    if (!phone && !email) return;
    const c = cac(party, "Contact");
    if (phone) cbc(c, "Telephone", phone);
    if (email) cbc(c, "ElectronicMail", email);
  }
  function person(party: XMLBuilder, first: string, last: string) {
    const p = cac(party, "Person");
    cbc(p, "FirstName", first || "-");
    cbc(p, "FamilyName", last || "-");
  }
}

function idScheme(taxNumber: string): "VKN" | "TCKN" {
  return taxNumber.length === 10 ? "VKN" : "TCKN";
}

function splitName(name: string): [string, string] {
  const parts = name.trim().split(/\s+/);
  const last = parts.length > 1 ? (parts.pop() ?? "") : "";
  return [parts.join(" "), last];
}

function fromOrderAddress(a: Address): PartyAddress {
  return {
    street: [a.line1, a.line2].filter(Boolean).join(" "),
    // Inferred: shops without a district field still need CitySubdivisionName; the city stands in.
    district: a.district || a.city,
    city: a.city,
    ...(a.postalCode ? { postalCode: a.postalCode } : {}),
    country: a.country === "TR" || !a.country ? "Türkiye" : a.country,
  };
}
