/**
 * İşbaşı customers (`firms`) and orders. İşbaşı has no sales order API: an order is written as a draft
 * sales invoice (`invoices/integrationInvoices`, the one document write the artifact shows), whose answer
 * carries its number and ETTN. Our reference goes into the invoice's `description`; the lookup filters
 * the invoice list on it (column name inferred). Required customer fields are checked before the call,
 * so a refusal never costs quota.
 */

import { createHash } from "node:crypto";
import type { CreateSalesOrderInput, ErpCustomerRef, ErpOrderRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Customer, Invoice, Order } from "../sdk/model";
import { turkishDateTime } from "../sdk/turkish-time";
import { round2 } from "../sdk/util";
import { type IsbasiApi, isObj, num, type Row, str } from "./api";

/** "yyyy-MM-dd HH:mm:ss", Turkish time (SimpleInv.invoiceDate). */
const trDateTime = (iso: string) => turkishDateTime(Date.parse(iso)).slice(0, 19);
/** GİB's stand-in for a final consumer without an id number (e-Arşiv). */
const FINAL_CONSUMER = "11111111111";
export const refText = (ref: string) => `E-ticaret sipariş no ${ref}`;

export class IsbasiOrders {
  /** Customers this connector wrote, by code (the invoice matches the card by code). */
  private readonly customers = new Map<string, Customer>();

  constructor(private readonly api: IsbasiApi) {}

  customerCode(ref: string): string {
    const clean = ref.toUpperCase().replace(/[^A-Z0-9-]/g, "");
    if (clean.length + 3 <= 25) return `EP-${clean}`;
    return `EP-${createHash("sha1").update(ref).digest("hex").slice(0, 20).toUpperCase()}`;
  }

  private missing(c: Customer): string[] {
    const a = c.billingAddress;
    const out: string[] = [];
    if (!a.line1) out.push("adres");
    if (!a.city) out.push("il");
    if (!a.district) out.push("ilçe");
    if (!a.postalCode) out.push("posta kodu");
    return out;
  }

  async createCustomer(c: Customer): Promise<ErpCustomerRef> {
    const code = this.customerCode(c.ref);
    this.customers.set(code, c);
    const { rows } = await this.api.list(
      "firms/firms",
      "listFirms",
      [{ columnName: "code", operator: "IsEqualTo", value: code }],
      1,
    );
    if (rows.some((r) => str(r.code) === code)) return { code, existed: true };
    const missing = this.missing(c);
    if (missing.length > 0) throw this.refusal(c.ref, missing);
    const a = c.billingAddress;
    await this.api.call("PUT", "firms", "saveFirm", "write", {
      id: 0,
      code,
      isActive: true,
      isPersonalCompany: !c.isCompany,
      name: c.companyName ?? `${c.firstName} ${c.lastName}`.trim(),
      firstName: c.firstName,
      lastName: c.lastName,
      taxOrPersonalId: c.taxNumber ?? FINAL_CONSUMER,
      taxOffice: c.taxOffice ?? "",
      country: a.country,
      city: a.city,
      district: a.district ?? "",
      postalCode: a.postalCode ?? "",
      address: [a.line1, a.line2].filter(Boolean).join(" "),
      // Only phoneNumbers[0] is stored (a live finding); `phone` alone is dropped.
      phoneNumbers: [c.phone ?? a.phone ?? ""],
      emailAddress: c.email ?? "",
      firmType: 1,
    });
    return { code, existed: false };
  }

  private refusal(key: string, missing: string[]): ConnectorError {
    const text = `Logo Is Basi fatura için müşterinin ${missing.join(", ")} bilgisini istiyor; ${key} için eksik. Siparişteki adresi tamamlayın.`;
    return new ConnectorError(`logo-isbasi: customer fields missing: ${missing.join(", ")}`, {
      reason: "validation",
      system: "logo-isbasi",
      operation: "integrationInvoices",
      itemKeys: [key],
      merchantMessage: text,
      systemMessage: text,
    });
  }

  private async findInvoiceRow(ref: string): Promise<Row | undefined> {
    const { rows } = await this.api.list(
      "invoices/invoices",
      "listInvoices",
      [{ columnName: "description", operator: "IsEqualTo", value: refText(ref) }],
      1,
    );
    return rows.find((r) => str(r.description) === refText(ref));
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const row = await this.findInvoiceRow(ref);
    return row ? { documentId: str(row.id), ref, existed: true } : null;
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    const existing = await this.findOrderByRef(order.orderNo);
    if (existing) return existing;
    const c = this.customers.get(input.customerCode) ?? order.customer;
    const a = c.billingAddress;
    const missing = this.missing(c);
    if (missing.length > 0) throw this.refusal(order.orderNo, missing);
    const data = await this.api.call("POST", "invoices/integrationInvoices", "integrationInvoices", "write", {
      invoiceId: 0,
      customer: {
        code: input.customerCode,
        name: c.companyName ?? `${c.firstName} ${c.lastName}`.trim(),
        email: c.email ?? "",
        tcknVkn: c.taxNumber ?? FINAL_CONSUMER,
        taxOffice: c.taxOffice ?? "",
        country: a.country,
        city: a.city,
        district: a.district ?? "",
        address: [a.line1, a.line2].filter(Boolean).join(" "),
        // Not in the SimpleInvCustomer model, but required and accepted under this name (live finding).
        postalCode: a.postalCode ?? "",
        isPerson: !c.isCompany,
        firstName: c.firstName,
        lastName: c.lastName,
      },
      invoiceDate: trDateTime(order.createdAt),
      currency: order.currency === "TRY" ? "TL" : order.currency,
      exchangeRate: 1,
      description: refText(order.orderNo),
      vatIncluded: true,
      salesInvoiceDetails: this.lines(order),
    });
    const id = isObj(data) ? str(data.invoiceId) : "";
    if (!id) {
      throw new ConnectorError(`logo-isbasi integrationInvoices: no invoiceId for ${order.orderNo}`, {
        reason: "bad_response",
        system: "logo-isbasi",
        operation: "integrationInvoices",
        itemKeys: [order.orderNo],
      });
    }
    return { documentId: id, ref: order.orderNo, existed: false };
  }

  private lines(order: Order) {
    const out = order.lines.map((l) => ({
      quantity: l.qty,
      taxRate: l.vatRate,
      name: l.name,
      price: round2(l.total / l.qty),
      productDetail: { itemCode: l.sku, itemType: 1, name: l.name, vat: l.vatRate, unit: "Adet" },
    }));
    if (order.shipping.cost > 0) {
      out.push({
        quantity: 1,
        taxRate: 20,
        name: "Kargo",
        price: order.shipping.cost,
        productDetail: { itemCode: "KARGO", itemType: 2, name: "Kargo", vat: 20, unit: "Adet" },
      });
    }
    return out;
  }

  /** The invoice the order was written as (İşbaşı issues it at once, as a draft until sent to GİB). */
  async listInvoicesForOrder(ref: string): Promise<Invoice[]> {
    const row = await this.findInvoiceRow(ref);
    if (!row) return [];
    const d = await this.api.call("GET", `invoices/${str(row.id)}`, "getInvoice", "read");
    if (!isObj(d)) return [];
    const details = Array.isArray(d.salesInvoiceDetails) ? d.salesInvoiceDetails.filter(isObj) : [];
    return [
      {
        orderRef: ref,
        number: str(d.invoiceNumber),
        uuid: str(d.uuid).toLowerCase(),
        date: str(d.invoiceDate).slice(0, 10),
        currency: str(d.currency) === "TL" || !d.currency ? "TRY" : str(d.currency),
        lines: details.map((l) => {
          const qty = num(l.quantity);
          const unit = num(l.price);
          return {
            sku: isObj(l.productDetail) ? str(l.productDetail.itemCode) : "",
            name: str(l.name),
            qty,
            unitPrice: unit,
            vatRate: num(l.taxRate),
            total: round2(unit * qty),
          };
        }),
        totals: { net: num(d.totalwotax), tax: num(d.vatAmount), gross: num(d.total) },
      },
    ];
  }
}
