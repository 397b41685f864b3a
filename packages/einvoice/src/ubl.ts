import type { Address, InternetSalePaymentMeans, Order } from "@ep/connectors";
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

/** How an e-Arşiv reaches the buyer (GİB's "gönderim şekli"; izibiz's samples: ELEKTRONIK or KAGIT). */
export type SendingType = "ELEKTRONIK" | "KAGIT";

/** A VAT exemption (GİB's TaxExemptionReasonCode list): needed on every VAT subtotal of 0,00. */
export interface VatExemption {
  code: string;
  reason: string;
}

/**
 * The exemption a SATIS invoice may carry for 0 % VAT: 351 "İstisna Olmayan Diğer". The other codes of
 * GİB's list are exemptions proper (ISTISNA, IHRACKAYITLI, ... invoice types) or special bases (OZELMATRAH).
 */
export const VAT_EXEMPTION_351: VatExemption = { code: "351", reason: "KDV - İstisna Olmayan Diğer" };

/** UN/ECE 4461 payment means codes (GİB's PaymentMeansCodeTypeList) for GİB's e-Arşiv payment words. */
export const PAYMENT_MEANS_CODE: Record<InternetSalePaymentMeans, string> = {
  "KREDIKARTI/BANKAKARTI": "48", // Bank card
  "EFT/HAVALE": "42", // Payment to bank account
  KAPIDAODEME: "10", // In cash
  ODEMEARACISI: "ZZZ", // Mutually defined (the intermediary is named in InstructionNote)
  DIGER: "ZZZ",
};

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
  /** HH:MM:SS (Europe/Istanbul). Required on an e-Arşiv (GİB's e-Arşiv guide: düzenlenme saati). */
  issueTime?: string;
  /** e-Arşiv only; default ELEKTRONIK (the shop's buyer gets it by e-mail / the order link). */
  sendingType?: SendingType;
  /**
   * e-Arşiv for a sale made on the internet (default for an EARSIVFATURA SATIS: every order here comes from
   * a shop): carries the web address, payment means and date, and the delivery when known.
   */
  internetSale?: boolean;
  /** For 0 % VAT (or a VAT that rounds to 0,00): the exemption written on that subtotal. */
  vatExemption?: VatExemption;
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
const TIME = /^([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;
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
  if (header.issueTime !== undefined && !TIME.test(header.issueTime))
    throw new RangeError(`Geçersiz fatura saati: ${header.issueTime}`);
  const earsiv = header.profile === "EARSIVFATURA";
  if (earsiv && !header.issueTime) throw new RangeError("e-Arşiv faturasında düzenleme saati zorunlu");
  if (header.type === "IADE" && header.profile === "TICARIFATURA")
    // GİB's schematron (InvoiceTypeCodeCheck, release 20260312): IADE only as TEMELFATURA, EARSIVFATURA, ...
    throw new RangeError("İade faturası TICARIFATURA senaryosunda düzenlenemez; TEMELFATURA olmalı");
  // What is missing for GİB's e-Arşiv internet-sale rules is left out of the document (it stays valid
  // UBL-TR); the issuer asks `internetSaleProblems` first and refuses with its Turkish reasons.
  const internetSale = earsiv && (header.internetSale ?? header.type === "SATIS");
  const { invalid } = internetSale ? checkInternetSale(order, seller) : { invalid: [] };
  if (invalid.length) throw new RangeError(invalid.join("; "));
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
  // GİB: a VAT subtotal of 0,00 needs an exemption reason (TaxExemptionReasonCheck); on a SATIS only
  // 351 fits (the other codes need an ISTISNA / OZELMATRAH ... invoice type: TaxExemptionReasonCodeCheck).
  const zero = amounts.subtotals.find((s) => s.taxK === 0);
  const exemption = header.vatExemption;
  if (zero && !exemption)
    throw new RangeError(
      `%${zero.vatRate} KDV tutarı 0,00; GİB bu alt toplam için vergi istisna/muafiyet kodu ister (satışta 351)`,
    );
  if (exemption && header.type === "SATIS" && exemption.code !== VAT_EXEMPTION_351.code)
    throw new RangeError(
      `Muafiyet kodu ${exemption.code} satış faturasında kullanılamaz (GİB: yalnız 351; diğerleri ISTISNA/ÖZEL MATRAH tipinde)`,
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
  // The phrase the law asks on an internet sale's e-Arşiv (izibiz's sample FATURA_21 carries it as a Note).
  if (internetSale) cbc(inv, "Note", "Bu satış internet üzerinden yapılmıştır.");
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
  if (earsiv) {
    // Where izibiz's e-Arşiv samples (FATURA_21/22) carry the sending type.
    const sending = cac(inv, "AdditionalDocumentReference");
    cbc(sending, "ID", "1");
    cbc(sending, "IssueDate", header.issueDate);
    cbc(sending, "DocumentTypeCode", "SendingType");
    cbc(sending, "DocumentType", header.sendingType ?? "ELEKTRONIK");
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
  if (seller.website?.trim()) cbc(supplier, "WebsiteURI", seller.website.trim());
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

  const delivery = order.delivery;
  if (internetSale && delivery && (delivery.carrier || delivery.dispatchDate || delivery.trackingNumber)) {
    const el = cac(inv, "Delivery");
    if (delivery.trackingNumber) cbc(el, "TrackingID", delivery.trackingNumber);
    if (delivery.carrier || delivery.carrierTaxNumber) {
      const carrier = cac(el, "CarrierParty");
      if (delivery.carrierTaxNumber)
        cbc(cac(carrier, "PartyIdentification"), "ID", delivery.carrierTaxNumber, {
          schemeID: idScheme(delivery.carrierTaxNumber),
        });
      if (delivery.carrier) cbc(cac(carrier, "PartyName"), "Name", delivery.carrier);
    }
    if (delivery.dispatchDate) cbc(cac(el, "Despatch"), "ActualDespatchDate", delivery.dispatchDate);
  }
  if (internetSale && order.payment) {
    const means = cac(inv, "PaymentMeans");
    cbc(means, "PaymentMeansCode", PAYMENT_MEANS_CODE[order.payment.means]);
    if (order.payment.date) cbc(means, "PaymentDueDate", order.payment.date);
    // One InstructionNote: Uyumsoft's PaymentMeansType (ground-truth Integration8.xsd) takes at most one, and
    // refused a second one for the intermediary (found by the browser walk with an IKAS gateway).
    const agent = order.payment.agent ? `; Ödeme aracısı: ${order.payment.agent}` : "";
    cbc(means, "InstructionNote", `${order.payment.means}${agent}`);
  }

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

  // The integrators' and GİB's samples (TicariFaturaOrnegi, izibiz FATURA_9): the total's line extension is
  // the lines before their discounts, and minus the allowance total it is the tax-exclusive amount.
  // Discounts sit on the lines (they lower each VAT base).
  const totals = cac(inv, "LegalMonetaryTotal");
  money(totals, "LineExtensionAmount", amounts.lineExtensionK + amounts.allowanceK);
  money(totals, "TaxExclusiveAmount", amounts.lineExtensionK);
  money(totals, "TaxInclusiveAmount", amounts.lineExtensionK + amounts.taxK);
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
    const category = cac(sub, "TaxCategory");
    if (taxK === 0 && exemption) {
      cbc(category, "TaxExemptionReasonCode", exemption.code);
      cbc(category, "TaxExemptionReason", exemption.reason);
    }
    const scheme = cac(category, "TaxScheme");
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

/**
 * What an e-Arşiv for an internet sale lacks (`missing`) or has malformed (`invalid`), as Turkish reasons.
 * GİB's e-Arşiv rules and the integrators (Uyumsoft's InternetSalesInfo: WebAddress, PaymentType,
 * PaymentDate; Trendyol e-Faturam's paymentInfo) ask for the seller's web address and the payment's means
 * and date; the delivery (carrier, dispatch date) is written when known: an invoice issued on payment
 * precedes the dispatch. The builder refuses what is invalid; what is missing is left out of the document,
 * and the issuer refuses on `internetSaleProblems` before it numbers anything.
 */
export function checkInternetSale(
  order: Order,
  seller: SellerInfo,
): { missing: string[]; invalid: string[] } {
  const missing: string[] = [];
  const invalid: string[] = [];
  if (!seller.website?.trim())
    missing.push("İnternet satışı e-Arşiv faturası için satıcının web adresi gerekli (Ayarlar › Firma)");
  if (!order.payment)
    missing.push("İnternet satışı e-Arşiv faturası için ödeme şekli gerekli (siparişte yok)");
  else if (!order.payment.date)
    missing.push("İnternet satışı e-Arşiv faturası için ödeme tarihi gerekli (siparişte yok)");
  else if (!DATE.test(order.payment.date)) invalid.push(`Geçersiz ödeme tarihi: ${order.payment.date}`);
  if (order.payment && !(order.payment.means in PAYMENT_MEANS_CODE))
    invalid.push(`Geçersiz ödeme şekli: ${order.payment.means}`);
  if (order.delivery?.dispatchDate && !DATE.test(order.delivery.dispatchDate))
    invalid.push(`Geçersiz gönderim tarihi: ${order.delivery.dispatchDate}`);
  if (order.delivery?.carrierTaxNumber && !/^(\d{10}|\d{11})$/.test(order.delivery.carrierTaxNumber))
    invalid.push("Taşıyıcının VKN/TCKN'si 10 veya 11 hane olmalı");
  return { missing, invalid };
}

/**
 * The order as an e-Arşiv of it is issued: a bank transfer or a payment at the door carries no payment date
 * (no shop records one; each shop's VERIFIED.md), yet its money is in by the time the merchant invoices it
 * (the company's "invoice when": paid or shipped). The invoice day then stands as the payment date, so such
 * orders, most Turkish web orders, are not held forever (inferred; README "Internet-sale data").
 */
export function paidByInvoiceDay(order: Order, issueDate: string): Order {
  if (!order.payment || order.payment.date) return order;
  return { ...order, payment: { ...order.payment, date: issueDate } };
}

/** Every reason an e-Arşiv internet sale cannot go out as it is (empty when complete). */
export function internetSaleProblems(order: Order, seller: SellerInfo): string[] {
  const { missing, invalid } = checkInternetSale(order, seller);
  return [...missing, ...invalid];
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
