import type { EInvoiceDocument, EInvoiceInternetSale, Order } from "@ep/connectors";
import type { InvoiceAmounts } from "./amounts.ts";
import { buyerTaxNumber, UNKNOWN_CONSUMER_TCKN } from "./profile.ts";
import type { InvoiceHeader, SellerInfo } from "./ubl.ts";

/**
 * The invoice as data for providers that take their own JSON (Trendyol e-Faturam), from the same
 * `InvoiceAmounts` the UBL was written from (`buildUblInvoice(...).amounts`), so both forms agree to the kuruş.
 * With the seller, an e-Arşiv internet sale carries the same internet-sale data as the UBL, for the
 * providers' own fields (Uyumsoft's InternetSalesInfo, Trendyol e-Faturam's paymentInfo / deliveryInfo).
 */
export function invoiceDocument(
  order: Order,
  header: InvoiceHeader,
  amounts: InvoiceAmounts,
  seller?: SellerInfo,
): EInvoiceDocument {
  const internetSale = internetSaleOf(order, header, seller);
  const c = order.customer;
  const a = order.billingAddress;
  const taxId = buyerTaxNumber(c) ?? UNKNOWN_CONSUMER_TCKN;
  const person = taxId.length === 11;
  const first = c.firstName || a.firstName;
  const last = c.lastName || a.lastName;
  const name = person ? first || last : c.companyName || `${first} ${last}`.trim();
  return {
    profile: header.profile,
    type: header.type,
    number: header.number,
    issueDate: header.issueDate,
    ...(header.issueTime ? { issueTime: header.issueTime } : {}),
    currency: order.currency.toUpperCase(),
    ...(header.exchangeRate ? { exchangeRate: header.exchangeRate } : {}),
    ...(internetSale ? { internetSale } : {}),
    buyer: {
      taxId,
      name: name || c.ref,
      ...(person && last ? { surname: last } : {}),
      city: a.city,
      ...(a.district ? { district: a.district } : {}),
      address: [a.line1, a.line2].filter(Boolean).join(" "),
      ...(a.postalCode ? { postalCode: a.postalCode } : {}),
      ...(c.email ? { email: c.email } : {}),
      ...((c.phone ?? a.phone) ? { phone: c.phone ?? a.phone } : {}),
      ...(c.taxOffice ? { taxOffice: c.taxOffice } : {}),
    },
    lines: amounts.lines.map((l) => ({
      name: l.name,
      qty: l.qty,
      vatRate: l.vatRate,
      unitPriceK: Math.round(Number(l.unitPrice) * 100 * 1e6) / 1e6,
      discountK: l.discountK,
      netK: l.netK,
      taxK: l.taxK,
    })),
    ...(header.returnOf ? { returnOf: header.returnOf } : {}),
  };
}

/** The internet-sale data `buildUblInvoice` writes into an e-Arşiv (same conditions, same inputs). */
function internetSaleOf(
  order: Order,
  header: InvoiceHeader,
  seller: SellerInfo | undefined,
): EInvoiceInternetSale | undefined {
  const website = seller?.website?.trim();
  const payment = order.payment;
  if (header.profile !== "EARSIVFATURA" || !(header.internetSale ?? header.type === "SATIS"))
    return undefined;
  if (!website || !payment?.date) return undefined;
  const delivery = order.delivery;
  return {
    website,
    sendingType: header.sendingType ?? "ELEKTRONIK",
    payment: { ...payment, date: payment.date },
    ...(delivery && (delivery.carrier || delivery.dispatchDate || delivery.trackingNumber)
      ? { delivery }
      : {}),
  };
}
