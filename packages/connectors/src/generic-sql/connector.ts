/**
 * The generic SQL connector: for ERPs with no public API (Gizsoft, Zirve, Nebim Winner, ETA, LucaNet)
 * it runs the merchant's configured SELECTs against the ERP's database through the SQL seam (the
 * on-site agent) and maps the rows to our model; orders go in through the configured procedure call
 * or INSERT template, always with parameters. Exactly once: the order is looked up by our reference
 * before any write, and in line mode only the lines not yet there are written.
 */

import { message } from "@ep/contracts";
import type {
  ConnectionInfo,
  ConnectorContext,
  ConnectorDescriptor,
  CreateSalesOrderInput,
  Credentials,
  ErpConnector,
  ErpCustomerRef,
  ErpOrderRef,
  FileSource,
  SourceFile,
  SourceFileKind,
} from "../sdk/connector";
import { ConnectorError, isConnectorError } from "../sdk/errors";
import type * as M from "../sdk/model";
import type { SqlDialect, SqlParams, SqlQuery, SqlResult, SqlTransport, SqlValue } from "../sdk/sql";
import { round2 } from "../sdk/util";
import {
  type GenericSqlConfig,
  invalid,
  keysetQuery,
  paramsOf,
  parseGenericSqlConfig,
  type QueryName,
  queryLabel,
  type ReadQueryName,
} from "./config";
import { columnValue, MAPPERS, missingColumns, type Row, type RowResult, rejection } from "./mapping";

const DEFAULT_PAGE = 500;
const DEFAULT_CAP = 10_000;
/** Socket failures: the statement's fate is unknown, the call is worth retrying. */
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTCONN",
  "EHOSTUNREACH",
]);

export function dialectOf(credentials: Credentials): SqlDialect {
  return credentials.sqlDialect === "mssql" ? "mssql" : "firebird";
}

/** Preview of one read query: its columns, first rows and each row's mapping result. */
export interface QueryPreview {
  columns: string[];
  rows: Row[];
  mapped: Array<RowResult<unknown>>;
  /** Mapped columns the result does not have. */
  mappingErrors: string[];
  truncated: boolean;
}

export class GenericSqlConnector implements ErpConnector {
  readonly config: GenericSqlConfig;
  readonly dialect: SqlDialect;
  private readonly filesRead = new Map<SourceFileKind, Promise<SourceFile | undefined>>();
  /** Report lines: which kinds this run read from which file. */
  private readonly fileNotes = new Map<SourceFileKind, string>();
  private ordersToFile = 0;

  constructor(
    readonly descriptor: ConnectorDescriptor,
    credentials: Credentials,
    private readonly ctx: ConnectorContext,
  ) {
    this.dialect = ctx.sql?.dialect ?? dialectOf(credentials);
    this.config = parseGenericSqlConfig(credentials.sqlConfig, this.dialect);
  }

  private get sql(): SqlTransport {
    if (!this.ctx.sql)
      throw new ConnectorError("generic SQL: no SQL transport", {
        reason: "unavailable",
        merchantMessage: message("connectors.genericSql.noTransport"),
        system: this.descriptor.system,
      });
    return this.ctx.sql;
  }

  /**
   * Runs a statement; a database error becomes a validation failure naming the query in Turkish. Every
   * query but the order write is a merchant read: the agent runs it where no write can last.
   */
  private async run(name: QueryName, query: SqlQuery, maxRows?: number): Promise<SqlResult> {
    try {
      const readOnly = name !== "orderWrite";
      return await this.sql.query({ ...query, readOnly }, { maxRows, timeoutMs: this.ctx.timeoutMs });
    } catch (e) {
      if (isConnectorError(e)) throw e;
      const code = (e as { code?: unknown }).code;
      if (typeof code === "string" && NETWORK_CODES.has(code))
        throw new ConnectorError(`generic SQL ${name}: ${code}`, {
          reason: code === "ETIMEDOUT" ? "timeout" : "network",
          system: this.descriptor.system,
          operation: name,
          cause: e,
        });
      const detail = e instanceof Error ? e.message : String(e);
      const text = message("connectors.genericSql.queryFailed", { what: queryLabel(name), detail });
      throw new ConnectorError(`generic SQL ${name}: ${detail}`, {
        reason: "validation",
        merchantMessage: text,
        systemMessage: detail,
        system: this.descriptor.system,
        operation: name,
        cause: e,
      });
    }
  }

  private queryOf(name: ReadQueryName) {
    const q = this.config[name];
    if (!q?.sql?.trim())
      throw new ConnectorError(`generic SQL: no ${name} query`, {
        reason: "validation",
        merchantMessage: message("connectors.genericSql.notConfigured", { what: queryLabel(name) }),
        system: this.descriptor.system,
        operation: name,
      });
    return q;
  }

  /** One page of a read query's raw rows: keyset when a key column is set, else the whole capped result. */
  private async readRows(name: ReadQueryName, q?: M.PageQuery): Promise<{ rows: Row[]; next?: string }> {
    const cfg = this.queryOf(name);
    if (cfg.keyColumn) {
      const size = Math.min(q?.pageSize ?? this.config.pageSize ?? DEFAULT_PAGE, 10_000);
      const after = q?.pageToken ? (JSON.parse(q.pageToken) as { v: SqlValue }).v : undefined;
      const text = keysetQuery(this.dialect, cfg.sql, cfg.keyColumn, size, after !== undefined);
      const res = await this.run(name, { text, params: after !== undefined ? { after } : {} }, size);
      const last = res.rows.at(-1);
      const lastKey = last ? columnValue(last, cfg.keyColumn) : undefined;
      const next =
        res.rows.length === size && lastKey !== undefined && lastKey !== null
          ? JSON.stringify({ v: lastKey instanceof Date ? lastKey.toISOString() : lastKey })
          : undefined;
      return { rows: res.rows, next };
    }
    const cap = this.config.rowCap ?? DEFAULT_CAP;
    const res = await this.run(name, { text: cfg.sql, params: {} }, cap + 1);
    if (res.truncated || res.rows.length > cap)
      throw invalid(
        name,
        message("connectors.genericSql.tooManyRows", { what: queryLabel(name), cap }),
        name,
      );
    return { rows: res.rows };
  }

  /**
   * The latest accepted file of a kind, when the merchant gave one (panel or watched folder): it is the
   * source of that kind instead of the SQL query ("the latest accepted file per kind wins"). Read once per
   * connector (one run), so every page comes from the same file.
   */
  private fileOf(kind: SourceFileKind): Promise<SourceFile | undefined> {
    const files = this.ctx.files;
    if (!files) return Promise.resolve(undefined);
    let cached = this.filesRead.get(kind);
    if (!cached) {
      cached = files.latest(kind);
      this.filesRead.set(kind, cached);
    }
    return cached;
  }

  /** One page of a file's rows (the page token is the next row's offset), mapped like a query's. */
  private filePage<T>(
    kind: SourceFileKind,
    file: SourceFile,
    q: M.PageQuery | undefined,
    map: (row: Row, columns: Record<string, string>) => RowResult<T>,
  ): M.Page<T> {
    const size = Math.min(q?.pageSize ?? this.config.pageSize ?? DEFAULT_PAGE, 10_000);
    const from = q?.pageToken ? Number(q.pageToken) : 0;
    const rows = file.rows.slice(from, from + size);
    const items: T[] = [];
    const rejected: M.RejectedRecord[] = [];
    for (const row of rows) {
      const r = map(row, file.mapping);
      if (r.ok) items.push(r.value);
      else rejected.push({ key: r.key, error: rejection(r.key, r.errors, kind) });
    }
    const next = from + size < file.rows.length ? String(from + size) : undefined;
    if (!this.fileNotes.has(kind))
      this.fileNotes.set(
        kind,
        message("connectors.genericSql.readFromFile", {
          what: queryLabel(kind),
          file: file.fileName,
          source: message(`connectors.genericSql.fileSource.${file.source}`),
          at: file.uploadedAt.slice(0, 16).replace("T", " "),
          rows: file.rows.length,
        }),
      );
    return { items, nextPageToken: next, ...(rejected.length ? { rejected } : {}) };
  }

  private async readPage<T>(
    name: ReadQueryName,
    q: M.PageQuery | undefined,
    map: (row: Row) => RowResult<T>,
  ): Promise<M.Page<T>> {
    const cfg = this.queryOf(name);
    const { rows, next } = await this.readRows(name, q);
    if (rows[0]) {
      const absent = missingColumns(cfg.columns, Object.keys(rows[0]));
      if (absent.length) throw invalid(name, absent.join(" "), name);
    }
    const items: T[] = [];
    const rejected: M.RejectedRecord[] = [];
    for (const row of rows) {
      const r = map(row);
      if (r.ok) items.push(r.value);
      else rejected.push({ key: r.key, error: rejection(r.key, r.errors, name) });
    }
    return { items, nextPageToken: next, ...(rejected.length ? { rejected } : {}) };
  }

  /** The first rows of a configured read query with each row's mapping (the panel's "Önizle"). */
  async preview(name: ReadQueryName, limit = 20): Promise<QueryPreview> {
    const cfg = this.queryOf(name);
    const res = await this.run(name, { text: cfg.sql, params: {} }, limit);
    const columns = res.rows[0] ? Object.keys(res.rows[0]) : [];
    const mapper = MAPPERS[name] as (row: Row, columns: Record<string, string>) => RowResult<unknown>;
    return {
      columns,
      rows: res.rows.slice(0, limit),
      mapped: res.rows.slice(0, limit).map((row) => mapper(row, cfg.columns)),
      mappingErrors: res.rows[0] ? missingColumns(cfg.columns, columns) : [],
      truncated: res.truncated === true || res.rows.length >= limit,
    };
  }

  async testConnection(): Promise<ConnectionInfo> {
    const name = (["products", "stock", "prices", "categories"] as const).find((n) => this.config[n]?.sql);
    // Files only (no query): the connection works through the files the merchant gives.
    if (!name && this.ctx.files)
      return {
        ok: true,
        system: this.descriptor.system,
        description: message("connectors.genericSql.filesOnly", { system: this.descriptor.name }),
      };
    if (!name)
      throw invalid(
        "products",
        message("connectors.genericSql.notConfigured", { what: queryLabel("products") }),
      );
    const p = await this.preview(name, 1);
    if (p.mappingErrors.length) throw invalid(name, p.mappingErrors.join(" "), "testConnection");
    return {
      ok: true,
      system: this.descriptor.system,
      description: message("connectors.genericSql.connected", { system: this.descriptor.name }),
    };
  }

  async listProducts(q?: M.PageQuery): Promise<M.Page<M.Product>> {
    const file = await this.fileOf("products");
    if (file) return this.filePage("products", file, q, MAPPERS.products);
    const cols = this.queryOf("products").columns;
    return this.readPage("products", q, (row) => MAPPERS.products(row, cols));
  }

  async listStock(q?: M.PageQuery & { locations?: string[] }): Promise<M.Page<M.StockLevel>> {
    const file = await this.fileOf("stock");
    const page = file
      ? this.filePage("stock", file, q, MAPPERS.stock)
      : await this.readPage("stock", q, (row) => MAPPERS.stock(row, this.queryOf("stock").columns));
    const wanted = q?.locations?.length ? new Set(q.locations) : undefined;
    return wanted ? { ...page, items: page.items.filter((s) => wanted.has(s.location)) } : page;
  }

  async listPrices(q?: M.PageQuery & { priceGroups?: string[] }): Promise<M.Page<M.Price>> {
    const file = await this.fileOf("prices");
    const page = file
      ? this.filePage("prices", file, q, (row, cols) => MAPPERS.prices(row, cols, this.config.currency))
      : await this.readPage("prices", q, (row) =>
          MAPPERS.prices(row, this.queryOf("prices").columns, this.config.currency),
        );
    const wanted = q?.priceGroups?.length ? new Set(q.priceGroups) : undefined;
    return wanted ? { ...page, items: page.items.filter((p) => wanted.has(p.priceGroup)) } : page;
  }

  async listCategories(q?: M.PageQuery): Promise<M.Page<M.Category>> {
    if (!this.config.categories?.sql) return { items: [] };
    const cols = this.config.categories.columns;
    const page = await this.readPage("categories", q, (row) => MAPPERS.categories(row, cols));
    const byId = new Map(page.items.map((c) => [c.id, c]));
    const pathOf = (c: Omit<M.Category, "path">): string[] => {
      const path: string[] = [];
      const seen = new Set<string>();
      for (
        let x: Omit<M.Category, "path"> | undefined = c;
        x && !seen.has(x.id);
        x = x.parentId ? byId.get(x.parentId) : undefined
      ) {
        seen.add(x.id);
        path.unshift(x.name);
      }
      return path;
    };
    return { ...page, items: page.items.map((c) => ({ ...c, path: pathOf(c) })) };
  }

  /** Distinct values of a column over every page of a read (settings lists). */
  private async distinct<T>(
    list: (q: M.PageQuery) => Promise<M.Page<T>>,
    key: (t: T) => string,
  ): Promise<string[]> {
    const seen = new Set<string>();
    let token: string | undefined;
    do {
      const page = await list({ pageToken: token });
      for (const item of page.items) seen.add(key(item));
      token = page.nextPageToken;
    } while (token);
    return [...seen].sort();
  }

  async listPriceGroups(): Promise<M.PriceGroup[]> {
    const file = await this.fileOf("prices");
    if (!file && !this.config.prices?.sql) return [];
    if (!(file ? file.mapping : this.config.prices?.columns)?.priceGroup)
      return [{ id: "default", name: "Varsayılan", isDefault: true }];
    const ids = await this.distinct(
      (q) => this.listPrices(q),
      (p) => p.priceGroup,
    );
    return ids.map((id, i) => ({ id, name: id, isDefault: i === 0 }));
  }

  async listStockLocations(): Promise<M.StockLocation[]> {
    if (!this.config.stock?.sql && !(await this.fileOf("stock"))) return [];
    const ids = await this.distinct(
      (q) => this.listStock(q),
      (s) => s.location,
    );
    return ids.map((id) => ({ id, name: id }));
  }

  /** The rows the lookup SELECT finds for our reference. */
  private async lookupRows(ref: string): Promise<Row[]> {
    const cfg = this.config.orderLookup;
    if (!cfg?.sql)
      throw invalid(
        "orderLookup",
        message("connectors.genericSql.notConfigured", { what: queryLabel("orderLookup") }),
      );
    const res = await this.run("orderLookup", { text: cfg.sql, params: { ref } }, 10_000);
    return res.rows;
  }

  /** Orders go out as an orders file when no order write is configured and files are the source. */
  private get ordersByFile(): FileSource | undefined {
    return this.config.orderWrite?.sql ? undefined : this.ctx.files;
  }

  async findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    const files = this.ordersByFile;
    if (files) return (await files.hasOrder(ref)) ? { documentId: ref, ref, existed: true } : null;
    const rows = await this.lookupRows(ref);
    if (rows.length === 0) return null;
    return this.refOf(ref, rows, true);
  }

  private refOf(ref: string, rows: Row[], existed: boolean): ErpOrderRef {
    const cols = this.config.orderLookup?.columns ?? {};
    const doc = rows[0] ? columnValue(rows[0], cols.documentId) : undefined;
    const lineIds = cols.lineNo ? rows.map((r) => String(columnValue(r, cols.lineNo))) : undefined;
    return {
      documentId: doc === undefined || doc === null ? ref : String(doc).trim(),
      ref,
      existed,
      lineIds,
    };
  }

  /**
   * These systems take the customer inside the order write (the `@customer…` parameters): there is no
   * customer table of ours to write, so the code is our reference and nothing is sent.
   */
  async createCustomer(customer: M.Customer): Promise<ErpCustomerRef> {
    return { code: customer.ref, existed: true };
  }

  async createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const files = this.ordersByFile;
    if (files) return this.orderToFile(files, input);
    const write = this.config.orderWrite;
    if (!write?.sql)
      throw invalid(
        "orderWrite",
        message("connectors.genericSql.notConfigured", { what: queryLabel("orderWrite") }),
      );
    const { order } = input;
    const ref = order.orderNo;
    const perLine = Boolean(this.config.orderLookup?.columns.lineNo);
    const before = await this.lookupRows(ref);
    const lineCol = this.config.orderLookup?.columns.lineNo;
    const present = new Set(before.map((r) => String(columnValue(r, lineCol)).trim()));
    if (before.length > 0 && !perLine) return this.refOf(ref, before, true);

    const c = input.order.customer;
    const a = order.billingAddress;
    const header: SqlParams = {
      ref,
      orderNo: order.orderNo,
      orderDate: new Date(order.createdAt),
      customerCode: input.customerCode,
      customerName: (c.companyName ?? `${c.firstName} ${c.lastName}`).trim(),
      customerEmail: c.email ?? null,
      customerPhone: c.phone ?? a.phone ?? null,
      taxNumber: c.taxNumber ?? null,
      taxOffice: c.taxOffice ?? null,
      address: [a.line1, a.line2].filter(Boolean).join(" "),
      city: a.city,
      district: a.district ?? null,
      currency: order.currency,
      grandTotal: round2(order.totals.grandTotal),
      shippingCost: round2(order.shipping.cost),
      location: input.location ?? null,
      series: input.series ?? null,
      note: order.note ?? null,
      lineCount: order.lines.length,
      linesJson: JSON.stringify(order.lines.map((l, i) => ({ lineNo: i + 1, ...l }))),
    };
    const used = paramsOf(write.sql, this.dialect);
    const pick = (all: SqlParams): SqlParams => Object.fromEntries(used.map((p) => [p, all[p] ?? null]));
    const statements: SqlParams[] = perLine
      ? order.lines
          .map((l, i) => ({
            ...header,
            lineNo: i + 1,
            sku: l.sku,
            lineName: l.name,
            qty: l.qty,
            unitPrice: round2(l.unitPrice),
            vatRate: l.vatRate,
            discount: round2(l.discount),
            lineTotal: round2(l.total),
          }))
          .filter((p) => !present.has(String(p.lineNo)))
      : [header];
    for (const params of statements) {
      try {
        await this.run("orderWrite", { text: write.sql, params: pick(params) });
      } catch (e) {
        // The statement may have run and its answer been lost: the next try looks the order up first.
        if (isConnectorError(e) && e.transient) throw e.with({ maybeApplied: true, itemKeys: [ref] });
        throw e;
      }
    }
    const after = await this.lookupRows(ref);
    if (after.length === 0)
      throw new ConnectorError(`generic SQL: order ${ref} written but not found`, {
        reason: "validation",
        merchantMessage: message("connectors.genericSql.orderNotFound", { orderNo: ref }),
        system: this.descriptor.system,
        operation: "createSalesOrder",
        itemKeys: [ref],
      });
    return this.refOf(ref, after, statements.length === 0);
  }

  /**
   * One row per order line for the orders file (the merchant's system imports it); recorded once per
   * order number, so a retried order is not doubled in the file.
   */
  private async orderToFile(files: FileSource, input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    const { order } = input;
    const c = order.customer;
    const a = order.billingAddress;
    const rows = order.lines.map((l, i) => ({
      orderNo: order.orderNo,
      orderDate: new Date(order.createdAt).toISOString(),
      customerCode: input.customerCode,
      customerName: (c.companyName ?? `${c.firstName} ${c.lastName}`).trim(),
      customerEmail: c.email ?? null,
      customerPhone: c.phone ?? a.phone ?? null,
      taxNumber: c.taxNumber ?? null,
      address: [a.line1, a.line2].filter(Boolean).join(" "),
      city: a.city,
      district: a.district ?? null,
      currency: order.currency,
      lineNo: i + 1,
      sku: l.sku,
      name: l.name,
      qty: l.qty,
      unitPrice: round2(l.unitPrice),
      vatRate: l.vatRate,
      discount: round2(l.discount),
      lineTotal: round2(l.total),
      shippingCost: round2(order.shipping.cost),
      grandTotal: round2(order.totals.grandTotal),
      note: order.note ?? null,
    }));
    const added = await files.addOrder(order.orderNo, rows);
    if (added) this.ordersToFile++;
    return { documentId: order.orderNo, ref: order.orderNo, existed: !added };
  }

  /** The run's report lines: the files read, and the orders file written (orders recorded this run). */
  async afterRun(): Promise<string[]> {
    const lines = [...this.fileNotes.values()];
    const files = this.ordersByFile;
    if (files && this.ordersToFile > 0) {
      const out = await files.closeOrders();
      if (out)
        lines.push(message("connectors.genericSql.ordersFile", { file: out.fileName, count: out.orders }));
    }
    return lines;
  }

  /** No invoice query is part of the configuration: these systems' invoices are not read. */
  async listInvoicesForOrder(_ref: string): Promise<M.Invoice[]> {
    return [];
  }
}

export function createGenericSqlConnector(descriptor: ConnectorDescriptor) {
  return (credentials: Credentials, ctx: ConnectorContext): GenericSqlConnector =>
    new GenericSqlConnector(descriptor, credentials, ctx);
}
