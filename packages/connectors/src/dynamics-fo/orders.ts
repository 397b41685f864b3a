/**
 * D365 F&O customers, sales orders and their invoices. A customer account is the configured prefix plus a
 * hash of our customer reference (stable, short enough for the account field); an order's header carries the
 * shop order number in `CustomersOrderReference`, which is how it is found again. The header is created
 * first (its number comes from the number sequence); its lines follow in one `$batch` change set, so they are
 * all there or none. An order found with no lines gets its lines (a header whose lines failed earlier).
 */

import { createHash } from "node:crypto";
import { message } from "@ep/contracts";
import type { CreateSalesOrderInput, ErpCustomerRef, ErpOrderRef } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Address, Customer, Invoice } from "../sdk/model";
import { round2 } from "../sdk/util";
import { DIMENSIONS, VARIANT_FIELDS } from "./catalog";
import { type D365Client, num, type Row, str } from "./client";
import { anyOf, odataString } from "./odata";

/** ISO 3166 alpha-3 (F&O country/region ids) of the country names shops send. */
function countryId(country: string): string {
  const c = country.trim().toLocaleUpperCase("tr-TR");
  if (["TR", "TUR", "TÜRKİYE", "TURKIYE", "TURKEY"].includes(c)) return "TUR";
  return c.length === 3 ? c : c.length === 2 ? c : "TUR";
}

function addressFields(prefix: "Address" | "DeliveryAddress" | "InvoiceAddress", a: Address): Row {
  return {
    [`${prefix}Street`]: [a.line1, a.line2].filter(Boolean).join(" "),
    [`${prefix}City`]: a.city,
    [`${prefix}ZipCode`]: a.postalCode ?? "",
    [`${prefix}CountryRegionId`]: countryId(a.country),
    ...(prefix === "Address"
      ? { AddressDistrictName: a.district ?? "" }
      : { [`${prefix}DistrictName`]: a.district ?? "" }),
  };
}

/** A deterministic UUID (v5 layout) of a name: F&O's invoice entities carry no ETTN. */
function nameUuid(name: string): string {
  const h = createHash("sha1").update(name).digest();
  h[6] = ((h[6] as number) & 0x0f) | 0x50;
  h[8] = ((h[8] as number) & 0x3f) | 0x80;
  const x = h.subarray(0, 16).toString("hex");
  return `${x.slice(0, 8)}-${x.slice(8, 12)}-${x.slice(12, 16)}-${x.slice(16, 20)}-${x.slice(20, 32)}`;
}

export class D365Orders {
  constructor(private readonly api: D365Client) {}

  customerAccount(ref: string): string {
    const prefix = this.api.cfg.customerPrefix ?? "ETC-";
    return `${prefix}${createHash("sha1").update(ref).digest("hex").slice(0, 10).toUpperCase()}`;
  }

  async createCustomer(c: Customer): Promise<ErpCustomerRef> {
    const code = this.customerAccount(c.ref);
    const found = await this.api.all("CustomersV3", {
      filter: `CustomerAccount eq ${odataString(code)}`,
      select: ["CustomerAccount"],
    });
    if (found.length > 0) return { code, existed: true };
    const body: Row = {
      dataAreaId: this.api.company,
      CustomerAccount: code,
      CustomerGroupId: this.api.cfg.customerGroup,
      SalesCurrencyCode: "TRY",
      ...(c.isCompany
        ? { PartyType: "Organization", OrganizationName: c.companyName || `${c.firstName} ${c.lastName}` }
        : { PartyType: "Person", PersonFirstName: c.firstName, PersonLastName: c.lastName }),
      PrimaryContactEmail: c.email ?? "",
      PrimaryContactPhone: c.phone ?? c.billingAddress.phone ?? "",
      TaxExemptNumber: c.taxNumber ?? "",
      ...addressFields("Address", c.billingAddress),
    };
    try {
      await this.api.create("CustomersV3", body);
    } catch (e) {
      // A lost answer to an earlier create: the account is there now.
      if (e instanceof ConnectorError && (e.reason === "conflict" || e.maybeApplied)) {
        const again = await this.api.all("CustomersV3", {
          filter: `CustomerAccount eq ${odataString(code)}`,
          select: ["CustomerAccount"],
        });
        if (again.length > 0) return { code, existed: true };
      }
      throw e;
    }
    return { code, existed: false };
  }

  private async header(ref: string): Promise<Row | undefined> {
    const rows = await this.api.all("SalesOrderHeadersV2", {
      filter: `CustomersOrderReference eq ${odataString(ref)}`,
      select: ["SalesOrderNumber", "CustomersOrderReference"],
    });
    return rows[0];
  }

  private async lineIds(orderNo: string): Promise<string[]> {
    const rows = await this.api.all("SalesOrderLines", {
      filter: `SalesOrderNumber eq ${odataString(orderNo)}`,
      select: ["SalesOrderNumber", "InventoryLotId"],
    });
    return rows.map((r) => str(r.InventoryLotId));
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const h = await this.header(ref);
    if (!h) return null;
    const documentId = str(h.SalesOrderNumber);
    return { documentId, ref, existed: true, lineIds: await this.lineIds(documentId) };
  }

  /** Order line skus → item number and dimensions (a variant number names a product master's variant). */
  private async itemsOf(skus: string[]): Promise<Map<string, Row>> {
    const out = new Map<string, Row>();
    const unique = [...new Set(skus)];
    const variants = await this.api.all("ReleasedProductVariantsV2", {
      filter: anyOf("ProductVariantNumber", unique),
      select: VARIANT_FIELDS,
    });
    for (const v of variants) out.set(str(v.ProductVariantNumber), v);
    const rest = unique.filter((s) => !out.has(s));
    if (rest.length > 0) {
      const items = await this.api.all("ReleasedProductsV2", {
        filter: anyOf("ItemNumber", rest),
        select: ["ItemNumber"],
      });
      for (const i of items) out.set(str(i.ItemNumber), i);
    }
    const missing = unique.filter((s) => !out.has(s));
    if (missing.length > 0) {
      throw new ConnectorError(`d365: unknown items ${missing.join(", ")}`, {
        reason: "unknown_item",
        system: this.api.http.system,
        operation: "createSalesOrder",
        itemKeys: missing,
        merchantMessage: message("connectors.d365ItemsUnknown", { skus: missing.join(", ") }),
      });
    }
    return out;
  }

  private lineBodies(input: CreateSalesOrderInput, orderNo: string, items: Map<string, Row>): Row[] {
    const site = this.api.cfg.site;
    const warehouse = input.location ?? this.api.cfg.warehouse;
    return input.order.lines.map((l) => {
      const item = items.get(l.sku) as Row;
      const dims = Object.fromEntries(
        DIMENSIONS.filter(([f]) => str(item[f]) !== "").map(([f]) => [f, str(item[f])]),
      );
      return {
        dataAreaId: this.api.company,
        SalesOrderNumber: orderNo,
        ItemNumber: str(item.ItemNumber),
        ...dims,
        OrderedSalesQuantity: l.qty,
        // Prices include VAT (the header says so); the discount is per unit in F&O.
        SalesPrice: round2(l.unitPrice),
        LineDiscountAmount: l.qty > 0 ? round2(l.discount / l.qty) : 0,
        LineDescription: l.name.slice(0, 1000),
        ...(site ? { ShippingSiteId: site } : {}),
        ...(warehouse ? { ShippingWarehouseId: warehouse } : {}),
      };
    });
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    if (order.lines.length === 0) {
      throw new ConnectorError(`d365: order ${order.orderNo} has no lines`, {
        reason: "validation",
        system: this.api.http.system,
        operation: "createSalesOrder",
        itemKeys: [order.orderNo],
      });
    }
    const items = await this.itemsOf(order.lines.map((l) => l.sku));
    const existing = await this.findOrderByRef(order.orderNo);
    let orderNo: string;
    if (existing) {
      if ((existing.lineIds ?? []).length > 0) return existing;
      orderNo = existing.documentId;
    } else {
      const a = order.shippingAddress;
      const site = this.api.cfg.site;
      const warehouse = input.location ?? this.api.cfg.warehouse;
      const created = await this.api.create("SalesOrderHeadersV2", {
        dataAreaId: this.api.company,
        OrderingCustomerAccountNumber: input.customerCode,
        InvoiceCustomerAccountNumber: input.customerCode,
        CustomersOrderReference: order.orderNo,
        CurrencyCode: order.currency,
        ArePricesIncludingSalesTax: "Yes",
        Email: order.customer.email ?? "",
        DeliveryAddressName: `${a.firstName} ${a.lastName}`.trim(),
        ...addressFields("DeliveryAddress", a),
        ...(site ? { DefaultShippingSiteId: site } : {}),
        ...(warehouse ? { DefaultShippingWarehouseId: warehouse } : {}),
      });
      orderNo = str(created.SalesOrderNumber);
      if (!orderNo) {
        throw new ConnectorError("d365 POST SalesOrderHeadersV2: answer without SalesOrderNumber", {
          reason: "bad_response",
          system: this.api.http.system,
          operation: "POST SalesOrderHeadersV2",
          itemKeys: [order.orderNo],
        });
      }
    }
    const lines = await this.api.createAll("SalesOrderLines", this.lineBodies(input, orderNo, items));
    return {
      documentId: orderNo,
      ref: order.orderNo,
      existed: false,
      lineIds: lines.map((l) => str(l.InventoryLotId)),
    };
  }

  async listInvoicesForOrder(ref: string): Promise<Invoice[]> {
    const h = await this.header(ref);
    if (!h) return [];
    const heads = await this.api.all("SalesInvoiceHeadersV2", {
      filter: `SalesOrderNumber eq ${odataString(str(h.SalesOrderNumber))}`,
      select: [
        "InvoiceNumber",
        "InvoiceDate",
        "CurrencyCode",
        "TotalInvoiceAmount",
        "TotalTaxAmount",
        "SalesOrderNumber",
      ],
    });
    if (heads.length === 0) return [];
    const lines = await this.api.all("SalesInvoiceLines", {
      filter: anyOf(
        "InvoiceNumber",
        heads.map((x) => str(x.InvoiceNumber)),
      ),
      select: [
        "InvoiceNumber",
        "ProductNumber",
        "ProductName",
        "InvoicedQuantity",
        "SalesPrice",
        "LineAmount",
        "LineTotalTaxAmount",
      ],
    });
    return heads.map((x) => {
      const number = str(x.InvoiceNumber);
      const gross = round2(num(x.TotalInvoiceAmount));
      const tax = round2(num(x.TotalTaxAmount));
      return {
        orderRef: ref,
        number,
        uuid: nameUuid(`d365:${this.api.company}:${number}`),
        date: str(x.InvoiceDate).slice(0, 10),
        currency: str(x.CurrencyCode) || "TRY",
        lines: lines
          .filter((l) => str(l.InvoiceNumber) === number)
          .map((l) => {
            const qty = num(l.InvoicedQuantity);
            const net = num(l.LineAmount);
            const lineTax = num(l.LineTotalTaxAmount);
            const total = round2(net + lineTax);
            return {
              sku: str(l.ProductNumber),
              name: str(l.ProductName) || undefined,
              qty,
              unitPrice: qty > 0 ? round2(total / qty) : total,
              vatRate: net > 0 ? Math.round((lineTax / net) * 100) : 0,
              total,
            };
          }),
        totals: { net: round2(gross - tax), tax, gross },
      };
    });
  }
}
