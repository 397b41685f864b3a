import type { ConnectorError } from "./errors.ts";
/**
 * Canonical model shared by every connector (design brief, "The engine in one page").
 * Money amounts are decimal numbers in major units (TRY 1.234,56 -> 1234.56), rounded to 2 places.
 * Timestamps are ISO-8601 strings in UTC unless a field says otherwise.
 */

export interface ProductVariant {
  /** Merchant key of the variant (ERP stock code / shop SKU). */
  sku: string;
  barcodes: string[];
  /** Variant options, e.g. { Renk: "Siyah", Beden: "M" }. Empty for single-variant products. */
  options: Record<string, string>;
  isActive?: boolean;
}

export interface Product {
  /** Merchant key of the product (for single-variant products equal to the variant sku). */
  sku: string;
  name: string;
  brand?: string;
  /** Category path from the root, e.g. ["Elektronik", "Telefon Aksesuarları"]. */
  categoryPath: string[];
  /** VAT (KDV) rate in percent: 0, 1, 10 or 20 in Turkey today. */
  vatRate: number;
  /** Unit of measure as the source names it ("Adet", "Kg", "Lt", "Paket"...). */
  unit: string;
  variants: ProductVariant[];
  images: string[];
  description?: string;
  isActive: boolean;
  /** Products of the source that belong together (e.g. Mikro `sto_model_kodu`); optional. */
  groupKey?: string;
  /** Last change in the source system (ISO). */
  updatedAt?: string;
}

export interface StockLevel {
  sku: string;
  /** Stock location id in the source system (ERP depot no / shop stock location id). */
  location: string;
  qty: number;
}

export interface Price {
  sku: string;
  /** Price group id in the source (ERP price list no / shop price list id). */
  priceGroup: string;
  amount: number;
  currency: string;
  vatIncluded: boolean;
}

export interface Category {
  id: string;
  name: string;
  parentId?: string;
  /** Names from the root down to this category. */
  path: string[];
}

export interface PriceGroup {
  id: string;
  name: string;
  currency?: string;
  vatIncluded?: boolean;
  isDefault?: boolean;
}

export interface StockLocation {
  id: string;
  name: string;
}

/** A value in one of the settings lists (order statuses, payment types, sales channels...). */
export interface Option {
  id: string;
  name: string;
}

export interface Address {
  firstName: string;
  lastName: string;
  company?: string;
  line1: string;
  line2?: string;
  district?: string;
  city: string;
  postalCode?: string;
  country: string;
  phone?: string;
}

export interface Customer {
  /** Our key for the customer (stable across runs, e.g. "IKAS-<shop customer id>" or the e-mail). */
  ref: string;
  firstName: string;
  lastName: string;
  /** Title for companies (ünvan). */
  companyName?: string;
  email?: string;
  phone?: string;
  /** VKN (10 digits, companies) or TCKN (11 digits, persons). */
  taxNumber?: string;
  taxOffice?: string;
  isCompany: boolean;
  billingAddress: Address;
  shippingAddress?: Address;
}

export interface OrderLine {
  sku: string;
  name: string;
  qty: number;
  /** Unit price as charged, VAT included. */
  unitPrice: number;
  /** 0 while `vatRateUnknown`: never a rate to issue or write then. */
  vatRate: number;
  /**
   * The source gave no rate (Amazon's order answer holds amounts only): the ERP item's rate fills it in
   * (engine `fillVatRates`) before the order reaches the ERP or an invoice.
   */
  vatRateUnknown?: boolean;
  discount: number;
  /** Line total after discount, VAT included. */
  total: number;
  /** Shop's own ids, when the shop has them. */
  externalProductId?: string;
  externalVariantId?: string;
}

export interface OrderTotals {
  subtotal: number;
  discount: number;
  shipping: number;
  tax: number;
  grandTotal: number;
}

/**
 * How the buyer paid, in the words of GİB's e-Arşiv internet-sale fields (ödeme şekli); the e-invoice
 * services take the same words.
 */
export type InternetSalePaymentMeans =
  | "KREDIKARTI/BANKAKARTI"
  | "EFT/HAVALE"
  | "KAPIDAODEME"
  | "ODEMEARACISI"
  | "DIGER";

/** What an e-Arşiv for an internet sale must carry about the payment. */
export interface OrderPayment {
  means: InternetSalePaymentMeans;
  /** YYYY-MM-DD (Europe/Istanbul). */
  date?: string;
  /** The payment intermediary's name (iyzico, PayTR, …) when there is one. */
  agent?: string;
}

/** What an e-Arşiv for an internet sale must carry about the delivery. */
export interface OrderDelivery {
  /** Carrier's name (Yurtiçi Kargo, Aras Kargo, …). */
  carrier?: string;
  /** Carrier's VKN, when the shop gives it. */
  carrierTaxNumber?: string;
  /** YYYY-MM-DD: the dispatch date (gönderim tarihi). */
  dispatchDate?: string;
  trackingNumber?: string;
}

export interface Order {
  /** Shop's internal id (used for status updates / invoice attachment). */
  id: string;
  /** Shop order number shown to the customer: the idempotency key of the order transfer. */
  orderNo: string;
  createdAt: string;
  updatedAt: string;
  /** Shop-native status code (e.g. IKAS package status). */
  status: string;
  paymentStatus?: string;
  paymentType?: string;
  salesChannel?: string;
  currency: string;
  customer: Customer;
  billingAddress: Address;
  shippingAddress: Address;
  lines: OrderLine[];
  shipping: { method?: string; cost: number };
  totals: OrderTotals;
  note?: string;
  /** Internet-sale data (absent where the shop gives none: its VERIFIED.md says what we do then). */
  payment?: OrderPayment;
  delivery?: OrderDelivery;
  /** TRY per one unit of `currency`, when the shop carries one. */
  exchangeRate?: number;
  /**
   * What came back, line by line, when the marketplace reports a return of some lines or units (a Trendyol
   * claim item, a Hepsiburada claim, an Amazon returns-report row): recorded once per `ref`. Absent: the
   * status alone says the whole order was cancelled or returned.
   */
  returned?: ReturnedLine[];
}

/** One return the marketplace reports: `qty` units of one line of the order. */
export interface ReturnedLine {
  /** The marketplace's own id of this return (claim item, claim number, report row): the idempotency key. */
  ref: string;
  sku: string;
  qty: number;
  /** The order line's own id where the marketplace names it (`OrderLine.externalProductId`). */
  lineId?: string;
}

export interface InvoiceLine {
  sku: string;
  name?: string;
  qty: number;
  unitPrice: number;
  vatRate: number;
  total: number;
}

export interface Invoice {
  /** Our reference of the order (shop order no) this invoice belongs to. */
  orderRef: string;
  /** Invoice number as printed (e.g. "WEB-000123"). */
  number: string;
  /** ETTN (UBL-TR UUID); the idempotency key of invoice transfer. */
  uuid: string;
  date: string;
  currency: string;
  lines: InvoiceLine[];
  totals: { net: number; tax: number; gross: number };
  /** UBL-TR document (XML) when the system offers it. */
  ublXml?: string;
  /** PDF, base64, when the system offers it. */
  pdfBase64?: string;
  /** A link to the document when the system offers one. */
  url?: string;
}

/** One page of a list. `nextPageToken` continues the same scan; absent on the last page. */
export interface Page<T> {
  items: T[];
  nextPageToken?: string;
  /**
   * High-water mark of a "changed since" scan: store it (after the batch is committed) and pass it
   * back as `since` next time. Reads overlap the last window, so the caller dedupes.
   */
  cursor?: string;
  /**
   * Records the system listed but that cannot be read as they are (e.g. a Mikro stock card whose VAT
   * pointer is not in the tax table): each becomes that record's failed task, and the scan goes on.
   */
  rejected?: RejectedRecord[];
}

/** A listed record the connector could not read, with the reason (a permanent ConnectorError). */
export interface RejectedRecord {
  key: string;
  error: ConnectorError;
}

export interface PageQuery {
  /** Cursor of a previous scan; absent for a full read. */
  since?: string;
  pageToken?: string;
  pageSize?: number;
}

/** Which entity lists of a connector honour `since`. */
export interface ChangeCursorSupport {
  products: boolean;
  stock: boolean;
  prices: boolean;
  categories: boolean;
  orders: boolean;
}
