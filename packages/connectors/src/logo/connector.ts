/**
 * Logo Tiger / Logo Go connector (ERP types 4 and 11, see ./descriptor.ts): customer cards and sales
 * orders through the Logo REST service (./rest.ts), reads over SQL through the on-site agent
 * (./sql.ts). Exactly once: an order is looked up by our order number (`DOC_TRACK_NR`) before it is
 * written, so a write whose answer was lost is found, not doubled, when the engine tries again.
 */

import { createHash } from "node:crypto";
import type {
  ConnectionInfo,
  ConnectorContext,
  ConnectorDescriptor,
  CreateSalesOrderInput,
  Credentials,
  ErpConnector,
  ErpCustomerRef,
  ErpOrderRef,
} from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type * as M from "../sdk/model";
import type { SqlTransport } from "../sdk/sql";
import { turkishDate } from "../sdk/turkish-time";
import { asciiCode, requireCredentials, round2 } from "../sdk/util";
import { logoRestDescriptor, logoTigerDescriptor } from "./descriptor";
import {
  isNotLicensed,
  LogoRest,
  num,
  quoteQ,
  REST_NOT_CONFIGURED,
  REST_NOT_LICENSED,
  type Row,
  str,
} from "./rest";
import { LogoSqlReader } from "./sql";

/** Logo's CLCARD.CODE holds 17 characters (inferred from Tiger's card screens; no DDL is public). */
const CODE_MAX = 17;

export class LogoConnector implements ErpConnector {
  private readonly cfg: Record<string, string>;
  private readonly rest?: LogoRest;
  private readonly reader: LogoSqlReader;
  readonly firm: number;

  constructor(
    readonly descriptor: ConnectorDescriptor,
    credentials: Credentials,
    private readonly ctx: ConnectorContext,
  ) {
    this.cfg = requireCredentials(descriptor.system, descriptor.credentials, credentials);
    this.firm = Number(this.cfg.firmNo);
    const period = this.cfg.periodNo ? Number(this.cfg.periodNo) : undefined;
    if (
      !Number.isInteger(this.firm) ||
      this.firm < 1 ||
      this.firm > 999 ||
      (period !== undefined && !Number.isInteger(period))
    )
      throw new ConnectorError(`${descriptor.system}: firm and period numbers must be whole numbers`, {
        reason: "config",
        system: descriptor.system,
        merchantMessage: "Logo firma ve dönem numaraları tam sayı olmalıdır (firma 1–999).",
      });
    if (LogoRest.configured(this.cfg)) this.rest = new LogoRest(this.cfg, ctx, descriptor);
    this.reader = new LogoSqlReader(
      () => this.sql,
      this.firm,
      period,
      descriptor,
      ctx.batch?.page ?? descriptor.batch.page ?? 500,
      ctx.now ?? Date.now,
      ctx.timeoutMs,
    );
  }

  private get sql(): SqlTransport {
    const sql = this.ctx.sql;
    if (!sql)
      throw new ConnectorError(`${this.descriptor.system}: no SQL transport`, {
        reason: "config",
        system: this.descriptor.system,
        merchantMessage:
          'Logo\'dan ürün, stok ve fiyat okumak için yerel bağlantı aracı ve Logo veritabanının takma adı gerekir: aracı kurup bağlantıya atayın ve "Veritabanı takma adı" alanını doldurun.',
      });
    // The agent runs a statement with the driver of its own alias; the transport's dialect follows the
    // stored field, which the form leaves empty (its default, mssql, is a placeholder): only an explicit
    // other database type is refused.
    if (this.cfg.sqlDialect && this.cfg.sqlDialect !== "mssql")
      throw new ConnectorError(`${this.descriptor.system}: Logo needs SQL Server`, {
        reason: "config",
        system: this.descriptor.system,
        merchantMessage: 'Logo veritabanı SQL Server\'dır: "Veritabanı türü" alanına mssql yazın.',
      });
    return sql;
  }

  private get restApi(): LogoRest {
    if (!this.rest)
      throw new ConnectorError(`${this.descriptor.system}: REST service not configured`, {
        reason: "config",
        system: this.descriptor.system,
        merchantMessage: REST_NOT_CONFIGURED,
      });
    return this.rest;
  }

  /** A REST failure that means "not licensed" carries the Turkish sentence offering the generic route. */
  private async rested<T>(p: Promise<T>): Promise<T> {
    try {
      return await p;
    } catch (e) {
      if (isNotLicensed(e) && e instanceof ConnectorError)
        throw e.with({ reason: "config", merchantMessage: REST_NOT_LICENSED });
      throw e;
    }
  }

  async testConnection(): Promise<ConnectionInfo> {
    const details: Record<string, unknown> = { restConfigured: !!this.rest };
    const words: string[] = [];
    let period: number | undefined;
    let firmName: string | undefined;
    if (this.ctx.sql) {
      firmName = await this.reader.firmName();
      if (firmName === undefined) {
        const text = `Logo'da ${this.firm} numaralı firma yok. Firma numarasını kontrol edin.`;
        throw new ConnectorError(`${this.descriptor.system}: no firm ${this.firm}`, {
          reason: "config",
          system: this.descriptor.system,
          merchantMessage: text,
          systemMessage: text,
        });
      }
      const p = await this.reader.period();
      period = p.nr;
      details.period = p;
      words.push(
        `veritabanı: ${firmName} (firma ${this.firm}, ${p.configured ? "dönem" : "çalışılan dönem"} ${p.nr}: ${p.begin} – ${p.end})`,
      );
    } else if (this.descriptor.type === logoTigerDescriptor.type) {
      // Type 11 reads everything over SQL: without the database there is nothing to test.
      void this.sql;
    } else words.push("veritabanı tanımlı değil (okumalar için yerel bağlantı aracı gerekir)");

    if (this.rest) {
      try {
        await this.rest.token();
        await this.rest.list("salesOrders", "probe salesOrders", "(NUMBER like '*')", 1);
        details.restLicensed = true;
        words.push("REST servisi: giriş başarılı");
      } catch (e) {
        if (!isNotLicensed(e)) throw e;
        details.restLicensed = false;
        if (this.descriptor.type === logoRestDescriptor.type)
          throw (e as ConnectorError).with({ reason: "config", merchantMessage: REST_NOT_LICENSED });
        words.push(REST_NOT_LICENSED);
      } finally {
        await this.rest.revoke();
      }
    } else words.push(REST_NOT_CONFIGURED);

    return {
      ok: true,
      system: this.descriptor.system,
      firm: String(this.firm),
      period: period === undefined ? undefined : String(period),
      description: `Logo: ${words.join("; ")}`,
      details: { ...details, firmName },
    };
  }

  listProducts(q?: M.PageQuery): Promise<M.Page<M.Product>> {
    return this.reader.listProducts(q);
  }

  listStock(q?: M.PageQuery & { locations?: string[] }): Promise<M.Page<M.StockLevel>> {
    return this.reader.listStock(q);
  }

  listPrices(q?: M.PageQuery & { priceGroups?: string[] }): Promise<M.Page<M.Price>> {
    return this.reader.listPrices(q);
  }

  listCategories(): Promise<M.Page<M.Category>> {
    return this.reader.listCategories();
  }

  listPriceGroups(): Promise<M.PriceGroup[]> {
    return this.reader.listPriceGroups();
  }

  listStockLocations(): Promise<M.StockLocation[]> {
    return this.reader.listStockLocations();
  }

  /** The period reads use now (configured or detected). */
  activePeriod() {
    return this.reader.period();
  }

  /** Deterministic customer code for our reference (≤ 17 characters). */
  customerCode(ref: string): string {
    const prefix = this.cfg.customerPrefix ?? "120.W.";
    const clean = asciiCode(ref);
    if (prefix.length + clean.length <= CODE_MAX) return prefix + clean;
    const hash = createHash("sha1").update(ref).digest("hex").slice(0, 8).toUpperCase();
    return `${prefix}${clean.slice(0, Math.max(0, CODE_MAX - prefix.length - 8))}${hash}`.slice(0, CODE_MAX);
  }

  async createCustomer(c: M.Customer): Promise<ErpCustomerRef> {
    const rest = this.restApi;
    const code = this.customerCode(c.ref);
    const found = await this.rested(rest.list("arps", "find arp", `(CODE like ${quoteQ(code)})`, 1));
    if (found.some((r) => str(r.CODE) === code)) return { code, existed: true };
    const a = c.billingAddress;
    const title = (c.companyName ?? `${c.firstName} ${c.lastName}`).trim();
    const person = !c.isCompany;
    await this.rested(
      rest.call("POST", "arps", "create arp", "write", {
        json: {
          ACCOUNT_TYPE: 1,
          CODE: code,
          TITLE: title.slice(0, 200),
          ADDRESS1: a.line1.slice(0, 200),
          ...(a.line2 ? { ADDRESS2: a.line2.slice(0, 200) } : {}),
          TOWN: a.district ?? "",
          CITY: a.city,
          COUNTRY: a.country,
          POSTAL_CODE: a.postalCode ?? "",
          TELEPHONE1: c.phone ?? a.phone ?? "",
          E_MAIL: c.email ?? "",
          ...(person
            ? {
                PERSCOMPANY: 1,
                NAME: c.firstName,
                SURNAME: c.lastName,
                ...(c.taxNumber ? { TCKNO: c.taxNumber } : {}),
              }
            : {
                PERSCOMPANY: 0,
                ...(c.taxNumber ? { TAX_ID: c.taxNumber, TAX_OFFICE: c.taxOffice ?? "" } : {}),
              }),
        },
      }),
    );
    return { code, existed: false };
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const rows = await this.rested(
      this.restApi.list("salesOrders", "find salesOrder", `(DOC_TRACK_NR like ${quoteQ(ref)})`, 2),
    );
    const first = rows.find((r) => str(r.DOC_TRACK_NR) === ref);
    if (!first) return null;
    return { documentId: str(first.NUMBER) || str(first.INTERNAL_REFERENCE), ref, existed: true };
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    const existing = await this.findOrderByRef(order.orderNo);
    if (existing) return existing;
    const warehouse = input.location ?? this.cfg.warehouseNo;
    const items = order.lines.map((l) => ({
      // 0 = material line (inferred: Koala.Yedpa writes 4, service lines, for its dues).
      TYPE: 0,
      MASTER_CODE: l.sku,
      QUANTITY: l.qty,
      PRICE: round2(l.total / l.qty),
      VAT_RATE: l.vatRate,
      VAT_INCLUDED: 1,
    }));
    const shippingCode = this.cfg.shippingCode?.trim();
    if (order.shipping.cost > 0 && shippingCode)
      items.push({
        // 4 = service line, as Koala.Yedpa writes its dues; the shipping VAT rate is inferred (20 %).
        TYPE: 4,
        MASTER_CODE: shippingCode,
        QUANTITY: 1,
        PRICE: round2(order.shipping.cost),
        VAT_RATE: 20,
        VAT_INCLUDED: 1,
      });
    const shipping =
      order.shipping.cost > 0 && !shippingCode
        ? `Kargo: ${order.shipping.cost.toFixed(2)} ${order.currency}`
        : "";
    let answer: unknown;
    try {
      answer = await this.rested(
        this.restApi.call("POST", "salesOrders", "create salesOrder", "write", {
          json: {
            NUMBER: "~",
            DATE: `${turkishDate(Date.parse(order.createdAt))}T00:00:00`,
            DOC_TRACK_NR: order.orderNo,
            ARP_CODE: input.customerCode,
            NOTES1: `E-ticaret sipariş no ${order.orderNo}`.slice(0, 50),
            ...(shipping ? { NOTES2: shipping } : {}),
            ...(warehouse !== undefined && warehouse !== "" ? { SOURCE_WH: num(warehouse) } : {}),
            ORDER_STATUS: 4,
            TRANSACTIONS: { items },
          },
        }),
      );
    } catch (e) {
      if (e instanceof ConnectorError && e.reason === "validation") {
        const sku = order.lines.find((l) => (e.systemMessage ?? "").includes(l.sku))?.sku;
        throw e.with({
          reason:
            sku && /bulunamad|tanımlı değil|yok/i.test(e.systemMessage ?? "") ? "unknown_item" : e.reason,
          itemKeys: sku ? [order.orderNo, sku] : [order.orderNo],
        });
      }
      throw e;
    }
    const body = (answer ?? {}) as Row;
    const documentId = str(body.NUMBER) || str(body.INTERNAL_REFERENCE);
    if (documentId) return { documentId, ref: order.orderNo, existed: false };
    const created = await this.findOrderByRef(order.orderNo);
    if (!created)
      throw new ConnectorError(
        `${this.descriptor.system} salesOrders: ${order.orderNo} accepted but not found`,
        {
          reason: "bad_response",
          system: this.descriptor.system,
          operation: "create salesOrder",
          itemKeys: [order.orderNo],
        },
      );
    return { ...created, existed: false };
  }

  async listInvoicesForOrder(_ref: string): Promise<M.Invoice[]> {
    throw new ConnectorError(`${this.descriptor.system}: invoices are not read yet`, {
      reason: "unsupported",
      system: this.descriptor.system,
      operation: "listInvoicesForOrder",
      merchantMessage: "Logo'dan fatura okuma henüz yapılmadı.",
    });
  }
}

export function createLogoConnector(descriptor: ConnectorDescriptor) {
  return (credentials: Credentials, ctx: ConnectorContext): ErpConnector =>
    new LogoConnector(descriptor, credentials, ctx);
}
