/**
 * Akınsoft Wolvox (ERP types 6 "Wolvox" and 10 "WolvoxSDK"): the company's WOLVOX.FDB read and written
 * through the on-site agent's SQL seam (Firebird). Reads stock cards, per-warehouse stock (summed from
 * movements), sales prices, barcodes and the group tree. Orders go in only as a pending received order
 * (SIPARIS + SIPARISHR, "Beklemede") the user confirms in Wolvox: one atomic EXECUTE BLOCK that writes
 * nothing when our order number is already there; no stock or cari movement, no invoice is ever written.
 */

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
import { ConnectorError, isConnectorError } from "../sdk/errors";
import type * as M from "../sdk/model";
import type { SqlParams, SqlResult, SqlTransport } from "../sdk/sql";
import { round2 } from "../sdk/util";
import { TABLE_COUNTERS } from "./judge/schema";
import * as Q from "./sql";

const SYSTEM = "wolvox";
const DEFAULT_PAGE = 500;
const MAX_PAGE = 5000;
/** Firebird status codes of a statement that lost a race (retry after a look-up): deadlock / update
 * conflict, lock conflict, concurrent transaction, and a key taken by a concurrent insert. */
const LOCK_CODES = new Set(["335544336", "335544345", "335544878", "335544665"]);
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTCONN",
  "EHOSTUNREACH",
]);
/** VAT rates a Wolvox card may carry (today's and the pre-2023 ones still on old cards). */
const VAT_RATES = new Set([0, 1, 8, 10, 18, 20]);

type Row = Record<string, unknown>;

const str = (v: unknown): string => (v === null || v === undefined ? "" : String(v).trim());
const num = (v: unknown): number | undefined => {
  if (v === null || v === undefined || v === "") return undefined;
  const n = typeof v === "number" ? v : Number(v);
  return Number.isFinite(n) ? n : undefined;
};
const isoOf = (v: unknown): string | undefined => {
  if (v instanceof Date && !Number.isNaN(v.getTime())) return v.toISOString();
  if (typeof v === "string" && v) {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
  }
  return undefined;
};

/** Cuts text to a column's length in bytes (a WIN1254 database counts characters; UTF-8 is the safe bound). */
function fit(value: string | undefined | null, max: number): string | null {
  if (value === undefined || value === null) return null;
  let s = value.trim();
  while (Buffer.byteLength(s, "utf8") > max) s = s.slice(0, -1);
  return s || null;
}

interface PageToken {
  /** Last key read. */
  a: number;
  /** Highest change date seen so far in this scan (ISO), the scan's cursor. */
  m?: string;
}

const decodeToken = (t?: string): PageToken => {
  if (!t) return { a: 0 };
  try {
    const v = JSON.parse(Buffer.from(t, "base64url").toString("utf8")) as PageToken;
    return typeof v.a === "number" ? v : { a: 0 };
  } catch {
    return { a: 0 };
  }
};
const encodeToken = (t: PageToken) => Buffer.from(JSON.stringify(t), "utf8").toString("base64url");
const maxIso = (a: string | undefined, b: string | undefined) => (!a ? b : !b ? a : a > b ? a : b);

export interface WolvoxSettings {
  /** CARI.CARIKODU every web order is written to; empty = the order carries the buyer's details only. */
  customerCode?: string;
  /** SUBE_KODU of the orders (Wolvox branch). */
  branchCode?: string;
  /** Sales prices are VAT included (Wolvox keeps no flag on STOK_FIYAT; inferred default: yes). */
  pricesIncludeVat: boolean;
}

export function wolvoxSettings(credentials: Credentials): WolvoxSettings {
  const yes = (v: string | undefined, dflt: boolean) =>
    v === undefined || v.trim() === ""
      ? dflt
      : ["1", "evet", "true", "e", "yes"].includes(v.trim().toLowerCase());
  return {
    customerCode: credentials.customerCode?.trim() || undefined,
    branchCode: credentials.branchCode?.trim() || undefined,
    pricesIncludeVat: yes(credentials.pricesIncludeVat, true),
  };
}

export class WolvoxConnector implements ErpConnector {
  readonly settings: WolvoxSettings;
  private customerKey: number | null | undefined;

  constructor(
    readonly descriptor: ConnectorDescriptor,
    credentials: Credentials,
    private readonly ctx: ConnectorContext,
  ) {
    this.settings = wolvoxSettings(credentials);
  }

  private fail(
    operation: string,
    merchantMessage: string,
    reason: "validation" | "config" | "unknown_item" = "validation",
    itemKeys?: string[],
  ) {
    return new ConnectorError(`wolvox ${operation}: ${merchantMessage}`, {
      reason,
      merchantMessage,
      system: SYSTEM,
      operation,
      itemKeys,
    });
  }

  private get sql(): SqlTransport {
    if (!this.ctx.sql)
      throw this.fail(
        "connect",
        "Wolvox veritabanına ulaşılamıyor: yerel bağlantı aracını eşleyin ve aracın kayıtlı veritabanı takma adını girin.",
        "config",
      );
    return this.ctx.sql;
  }

  /** Runs one statement; database errors become Turkish messages, lock conflicts and socket losses transient. */
  private async run(
    operation: string,
    text: string,
    params: SqlParams = {},
    maxRows?: number,
  ): Promise<SqlResult> {
    try {
      return await this.sql.query({ text, params }, { maxRows, timeoutMs: this.ctx.timeoutMs });
    } catch (e) {
      throw this.classify(operation, e);
    }
  }

  private classify(operation: string, e: unknown): unknown {
    const gds = (e as { gdscode?: unknown }).gdscode;
    const code = isConnectorError(e)
      ? e.systemCode
      : gds !== undefined
        ? String(gds)
        : (e as { code?: unknown }).code;
    const text = isConnectorError(e)
      ? (e.systemMessage ?? e.message)
      : e instanceof Error
        ? e.message
        : String(e);
    if (
      (typeof code === "string" && LOCK_CODES.has(code)) ||
      /deadlock|lock conflict|update conflicts|violation of PRIMARY or UNIQUE KEY/i.test(text)
    )
      return new ConnectorError(`wolvox ${operation}: lock conflict`, {
        reason: "lock",
        systemMessage: text,
        systemCode: typeof code === "string" ? code : undefined,
        merchantMessage:
          "Wolvox kaydı başka bir kullanıcı tarafından kilitli; işlem biraz sonra yeniden denenecek.",
        system: SYSTEM,
        operation,
        cause: e,
      });
    if (isConnectorError(e)) {
      if (e.reason === "validation" && /Table unknown|Column unknown/i.test(text))
        return new ConnectorError(`wolvox ${operation}: ${text}`, {
          reason: "config",
          systemMessage: text,
          systemCode: e.systemCode,
          merchantMessage: `Bu veritabanı Wolvox şirket veritabanına benzemiyor (${unknownName(text)} bulunamadı). Aracın takma adının şirketin ve yılın WOLVOX.FDB dosyasını gösterdiğini kontrol edin.`,
          system: SYSTEM,
          operation,
          cause: e,
        });
      if (e.reason === "auth")
        return e.with({
          merchantMessage:
            "Wolvox veritabanı kullanıcı adı ya da parolası reddedildi (aracın veritabanı kaydını kontrol edin).",
        });
      return e;
    }
    if (typeof code === "string" && NETWORK_CODES.has(code))
      return new ConnectorError(`wolvox ${operation}: ${code}`, {
        reason: code === "ETIMEDOUT" ? "timeout" : "network",
        systemMessage: text,
        systemCode: code,
        system: SYSTEM,
        operation,
        cause: e,
      });
    if (/Table unknown|Column unknown/i.test(text))
      return this.fail(
        operation,
        `Bu veritabanı Wolvox şirket veritabanına benzemiyor (${unknownName(text)} bulunamadı). Aracın takma adının şirketin ve yılın WOLVOX.FDB dosyasını gösterdiğini kontrol edin.`,
        "config",
      );
    return new ConnectorError(`wolvox ${operation}: ${text}`, {
      reason: "validation",
      systemMessage: text,
      systemCode: typeof code === "string" ? code : undefined,
      merchantMessage: `Wolvox veritabanı işlemi reddetti: ${text}`,
      system: SYSTEM,
      operation,
      cause: e,
    });
  }

  private pageSize(q?: M.PageQuery): number {
    return Math.max(
      1,
      Math.min(q?.pageSize ?? this.ctx.batch?.page ?? this.descriptor.batch.page ?? DEFAULT_PAGE, MAX_PAGE),
    );
  }

  async testConnection(): Promise<ConnectionInfo> {
    const probe = await this.run("testConnection", Q.CONNECTION_PROBE);
    const depots = await this.listStockLocations();
    if (this.settings.customerCode) await this.customerBlkodu();
    const cards = probe.rows.length === 0 ? "henüz stok kartı yok" : "stok kartları okunabiliyor";
    return {
      ok: true,
      system: SYSTEM,
      description: `Wolvox veritabanına yerel bağlantı aracı üzerinden bağlanıldı: ${cards}, ${depots.length} depo.`,
      details: { warehouses: depots.length },
    };
  }

  async listProducts(q?: M.PageQuery): Promise<M.Page<M.Product>> {
    const size = this.pageSize(q);
    const token = decodeToken(q?.pageToken);
    const since = q?.since ? new Date(q.since) : undefined;
    const params: SqlParams = { size, after: token.a, ...(since ? { since } : {}) };
    const res = await this.run("listProducts", Q.productsPage(Boolean(since)), params);
    const rows = res.rows;
    const keys = rows.map((r) => num(r.BLKODU) ?? 0);
    const barcodes = new Map<number, string[]>();
    if (keys.length) {
      const extra = await this.run("listProducts", Q.BARCODES_OF_RANGE, {
        first: Math.min(...keys),
        last: Math.max(...keys),
      });
      for (const r of extra.rows) {
        const k = num(r.BLSTKODU) ?? 0;
        const list = barcodes.get(k) ?? [];
        list.push(str(r.BARKODU));
        barcodes.set(k, list);
      }
    }
    const items: M.Product[] = [];
    const rejected: M.RejectedRecord[] = [];
    let max = token.m;
    for (const r of rows) {
      const key = num(r.BLKODU) ?? 0;
      const changed = isoOf(r.DEGISTIRME_TARIHI) ?? isoOf(r.KAYIT_TARIHI);
      max = maxIso(max, changed);
      const sku = str(r.STOKKODU);
      const vat = num(r.KDV_ORANI) ?? 0;
      if (!sku) {
        rejected.push({
          key: `BLKODU ${key}`,
          error: this.fail("listProducts", `Wolvox stok kartı ${key}: stok kodu boş.`, "validation", [
            `BLKODU ${key}`,
          ]),
        });
        continue;
      }
      if (!VAT_RATES.has(vat)) {
        rejected.push({
          key: sku,
          error: this.fail(
            "listProducts",
            `Wolvox stok kartı ${sku}: KDV oranı (${str(r.KDV_ORANI)}) geçerli bir oran değil. Kartı Wolvox'ta düzeltin.`,
            "validation",
            [sku],
          ),
        });
        continue;
      }
      const codes = [str(r.BARKODU), ...(barcodes.get(key) ?? [])].filter(Boolean);
      const aktif = num(r.AKTIF);
      items.push({
        sku,
        name: str(r.STOK_ADI) || sku,
        brand: str(r.MARKASI) || undefined,
        categoryPath: [str(r.GRUBU), str(r.ARA_GRUBU), str(r.ALT_GRUBU)].filter(Boolean),
        vatRate: vat,
        unit: str(r.BIRIMI) || "Adet",
        variants: [{ sku, barcodes: [...new Set(codes)], options: {} }],
        images: [],
        // Inferred: AKTIF 0 = passive card; an empty AKTIF counts as active.
        isActive: aktif === undefined ? true : aktif !== 0,
        groupKey: str(r.ANA_STOKKODU) || undefined,
        updatedAt: changed,
      });
    }
    const last = keys.at(-1);
    const next = rows.length === size && last !== undefined ? encodeToken({ a: last, m: max }) : undefined;
    return { items, nextPageToken: next, cursor: max ?? q?.since, ...(rejected.length ? { rejected } : {}) };
  }

  async listStock(q?: M.PageQuery & { locations?: string[] }): Promise<M.Page<M.StockLevel>> {
    // No change-since for stock: STOKHR's change columns are filled by the application (inferred), a
    // movement entered with an old date would be missed; stock is read whole (descriptor: stock false).
    const size = this.pageSize(q);
    const token = decodeToken(q?.pageToken);
    const keys = await this.run("listStock", Q.CARD_KEYS_PAGE, { size, after: token.a });
    const last = num(keys.rows.at(-1)?.BLKODU);
    if (last === undefined) return { items: [] };
    const res = await this.run("listStock", Q.STOCK_OF_RANGE, { after: token.a, last });
    const wanted = q?.locations?.length ? new Set(q.locations) : undefined;
    const items: M.StockLevel[] = [];
    for (const r of res.rows) {
      const location = str(r.DEPO_ADI);
      // A movement without a warehouse belongs to none the shop can map (inferred: skipped).
      if (!location || (wanted && !wanted.has(location))) continue;
      items.push({ sku: str(r.STOKKODU), location, qty: round3(num(r.MIKTAR) ?? 0) });
    }
    items.sort((a, b) =>
      a.sku === b.sku ? a.location.localeCompare(b.location) : a.sku.localeCompare(b.sku),
    );
    return { items, nextPageToken: keys.rows.length === size ? encodeToken({ a: last }) : undefined };
  }

  async listPrices(q?: M.PageQuery & { priceGroups?: string[] }): Promise<M.Page<M.Price>> {
    const size = this.pageSize(q);
    const token = decodeToken(q?.pageToken);
    const since = q?.since ? new Date(q.since) : undefined;
    const res = await this.run("listPrices", Q.pricesPage(Boolean(since)), {
      size,
      after: token.a,
      ...(since ? { since } : {}),
    });
    const wanted = q?.priceGroups?.length ? new Set(q.priceGroups) : undefined;
    const items: M.Price[] = [];
    let max = token.m;
    for (const r of res.rows) {
      max = maxIso(max, isoOf(r.FIYAT_DEG_TARIHI));
      const group = str(r.FIYAT_NO) || "1";
      const amount = num(r.FIYATI);
      if (amount === undefined || (wanted && !wanted.has(group))) continue;
      items.push({
        sku: str(r.STOKKODU),
        priceGroup: group,
        amount: round2(amount),
        currency: currencyOf(str(r.HESAP)),
        vatIncluded: this.settings.pricesIncludeVat,
      });
    }
    const last = num(res.rows.at(-1)?.BLKODU);
    const next =
      res.rows.length === size && last !== undefined ? encodeToken({ a: last, m: max }) : undefined;
    return { items, nextPageToken: next, cursor: max ?? q?.since };
  }

  async listCategories(_q?: M.PageQuery): Promise<M.Page<M.Category>> {
    const res = await this.run("listCategories", Q.GROUPS_IN_USE);
    const byId = new Map<string, M.Category>();
    for (const r of res.rows) {
      const path = [str(r.GRUBU), str(r.ARA_GRUBU), str(r.ALT_GRUBU)].filter(Boolean);
      for (let i = 1; i <= path.length; i++) {
        const p = path.slice(0, i);
        const id = p.join(" > ");
        if (!byId.has(id))
          byId.set(id, {
            id,
            name: p[i - 1] as string,
            parentId: i > 1 ? p.slice(0, i - 1).join(" > ") : undefined,
            path: p,
          });
      }
    }
    return { items: [...byId.values()].sort((a, b) => a.id.localeCompare(b.id)) };
  }

  async listPriceGroups(): Promise<M.PriceGroup[]> {
    const defs = await this.run("listPriceGroups", Q.PRICE_DEFINITIONS);
    const rows = defs.rows.length
      ? defs.rows
      : (await this.run("listPriceGroups", Q.PRICE_NUMBERS_IN_USE)).rows;
    const groups = rows.map((r) => {
      const id = str(r.FIYAT_NO);
      return { id, name: str(r.TANIMI) || `Satış fiyatı ${id}`, vatIncluded: this.settings.pricesIncludeVat };
    });
    const unique = [...new Map(groups.map((g) => [g.id, g])).values()];
    return unique.map((g, i) => ({
      ...g,
      isDefault: g.id === "1" || (i === 0 && !unique.some((x) => x.id === "1")),
    }));
  }

  async listStockLocations(): Promise<M.StockLocation[]> {
    const res = await this.run("listStockLocations", Q.WAREHOUSES);
    return res.rows
      .filter((r) => num(r.AKTIF) !== 0 || r.AKTIF === null)
      .map((r) => ({ id: str(r.DEPO_ADI), name: str(r.DEPO_ADI) }))
      .filter((l) => l.id);
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const res = await this.run("findOrderByRef", Q.ORDER_BY_REF, { ref });
    const row = res.rows[0];
    if (!row) return null;
    return { documentId: str(row.BLKODU), ref, existed: true };
  }

  /**
   * No customer card is written (CARI is master data the user keeps): the order carries the buyer's
   * details, and goes to the configured cari when there is one.
   */
  async createCustomer(customer: M.Customer): Promise<ErpCustomerRef> {
    return { code: this.settings.customerCode ?? customer.ref, existed: true };
  }

  private async customerBlkodu(): Promise<number | null> {
    if (!this.settings.customerCode) return null;
    if (this.customerKey !== undefined) return this.customerKey;
    const res = await this.run("customer", Q.CUSTOMER_BY_CODE, { code: this.settings.customerCode });
    const key = num(res.rows[0]?.BLKODU);
    if (key === undefined)
      throw this.fail(
        "customer",
        `Wolvox'ta ${this.settings.customerCode} kodlu cari kart yok; bağlantı ayarlarındaki "Web siparişleri cari kodu" alanını düzeltin.`,
        "config",
      );
    this.customerKey = key;
    return key;
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    const ref = order.orderNo;
    if (ref.length > 30)
      throw this.fail(
        "createSalesOrder",
        `Sipariş numarası ${ref} Wolvox'un 30 karakterlik sipariş numarası alanına sığmıyor.`,
        "validation",
        [ref],
      );
    if (order.currency !== "TRY")
      throw this.fail(
        "createSalesOrder",
        `Sipariş ${ref} ${order.currency} cinsinden; Wolvox'a yalnız TL siparişler yazılır.`,
        "validation",
        [ref],
      );
    if (order.lines.length === 0)
      throw this.fail("createSalesOrder", `Sipariş ${ref} satırsız; Wolvox'a yazılmadı.`, "validation", [
        ref,
      ]);

    // Looked up first: an order already there (an earlier run whose answer was lost) is not written again.
    const existing = await this.findOrderByRef(ref);
    if (existing) return existing;

    const skus = [...new Set(order.lines.map((l) => l.sku))];
    const cards = await this.run(
      "createSalesOrder",
      Q.cardsBySku(skus.length),
      Object.fromEntries(skus.map((s, i) => [`sku${i}`, s])),
    );
    const bySku = new Map(cards.rows.map((r) => [str(r.STOKKODU), r]));
    const missing = skus.filter((s) => !bySku.has(s));
    if (missing.length)
      throw this.fail(
        "createSalesOrder",
        `Wolvox'ta ${missing.join(", ")} stok kodlu kart yok; sipariş ${ref} yazılmadı.`,
        "unknown_item",
        missing,
      );
    const customerKey = await this.customerBlkodu();

    const c = order.customer;
    const bill = order.billingAddress;
    const ship = order.shippingAddress;
    const person = `${bill.firstName || c.firstName} ${bill.lastName || c.lastName}`.trim();
    const net = (total: number, vat: number) => round2(total / (1 + vat / 100));
    const totalNet = order.lines.reduce((s, l) => s + net(l.total, l.vatRate), 0);
    const totalGross = order.lines.reduce((s, l) => s + l.total, 0);
    const note = [
      `E-ticaret siparişi ${ref}`,
      order.shipping.cost ? `kargo ${round2(order.shipping.cost)} TL` : "",
      order.note ?? "",
    ]
      .filter(Boolean)
      .join(" · ");
    const header: Record<string, string | number | Date | null> = {
      P_REF: ref,
      P_TARIH: new Date(order.createdAt),
      P_CRKODU: customerKey,
      P_CARIKODU: fit(this.settings.customerCode ?? input.customerCode, 30),
      P_UNVAN: fit(c.companyName ?? person, 250),
      P_ADSOYAD: fit(person, 101),
      P_VERGINO: fit(c.taxNumber, 20),
      P_VDAIRE: fit(c.taxOffice, 250),
      P_TEL: fit(c.phone ?? bill.phone, 20),
      P_EPOSTA: fit(c.email, 60),
      P_ADRES: fit([bill.line1, bill.line2].filter(Boolean).join(" "), 250),
      P_IL: fit(bill.city, 25),
      P_ILCE: fit(bill.district, 25),
      P_SADRES: fit([ship.line1, ship.line2].filter(Boolean).join(" "), 250),
      P_SIL: fit(ship.city, 25),
      P_SILCE: fit(ship.district, 25),
      P_ACIKLAMA: fit(note, 100),
      P_SUBE: fit(this.settings.branchCode, 30),
      P_KAYDEDEN: "ENTEGRASYON",
      P_DEPO: fit(input.location, 30),
      P_GENEL: round2(totalGross),
      P_KDV: round2(totalGross - totalNet),
      P_ARA: round2(totalNet),
      P_MIKTAR: order.lines.reduce((s, l) => s + l.qty, 0),
      P_GEN_SIP: TABLE_COUNTERS.SIPARIS,
      P_GEN_HR: TABLE_COUNTERS.SIPARISHR,
    };
    const params: SqlParams = {};
    for (const [k, v] of Object.entries(header)) params[Q.paramName(k)] = v;
    order.lines.forEach((l, i) => {
      const card = bySku.get(l.sku) as Row;
      const lineNet = net(l.total, l.vatRate);
      const values: Record<string, string | number | null> = {
        ST: num(card.BLKODU) ?? null,
        KOD: fit(l.sku, 30),
        AD: fit(l.name, 250),
        BIRIM: fit(str(card.BIRIMI) || "Adet", 15),
        MIK: l.qty,
        FIY: round2(l.unitPrice),
        KDVO: l.vatRate,
        KDVT: round2(l.total - lineNet),
        NET: lineNet,
        TUT: round2(l.total),
      };
      for (const [k, v] of Object.entries(values)) params[Q.paramName(`L${i}_${k}`)] = v;
    });

    let res: SqlResult;
    try {
      res = await this.run("createSalesOrder", Q.orderBlock(order.lines.length), params);
    } catch (e) {
      // The block may have committed and its answer been lost: the next try looks the order up first.
      // A lock conflict or a refused statement changed nothing (one transaction).
      if (isConnectorError(e))
        throw e.with({
          merchantMessage: e.merchantMessage,
          maybeApplied: e.maybeApplied || e.reason === "network" || e.reason === "timeout",
          itemKeys: [ref],
        });
      throw e;
    }
    const row = res.rows[0];
    if (!row || num(row.ID) === undefined) {
      const found = await this.findOrderByRef(ref);
      if (found) return { ...found, existed: false };
      throw this.fail(
        "createSalesOrder",
        `Sipariş ${ref} Wolvox'a yazıldı ancak bulunamadı; iki kez yazılmasın diye yeniden gönderilmedi.`,
        "validation",
        [ref],
      );
    }
    return {
      documentId: str(row.ID),
      ref,
      existed: num(row.EXISTED) === 1,
      lineIds: order.lines.map((_, i) => String(i + 1)),
    };
  }

  /** Wolvox invoices are not read yet: which FATURA row belongs to which web order is not public (inferred). */
  async listInvoicesForOrder(_ref: string): Promise<M.Invoice[]> {
    return [];
  }
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

/** Wolvox's HESAP (currency of a price): "TL"/"TRY"/empty is the local currency. */
function currencyOf(hesap: string): string {
  const h = hesap.toUpperCase();
  return !h || h === "TL" || h === "TRY" || h === "YTL" ? "TRY" : h;
}

function unknownName(text: string): string {
  const m = /(?:Table|Column) unknown[\s,-]*([A-Z0-9_$."]+)/i.exec(text.replace(/\n/g, " "));
  return m?.[1]?.replace(/"/g, "") ?? "tablo";
}

export function createWolvoxConnector(descriptor: ConnectorDescriptor) {
  return (credentials: Credentials, ctx: ConnectorContext): WolvoxConnector =>
    new WolvoxConnector(descriptor, credentials, ctx);
}
