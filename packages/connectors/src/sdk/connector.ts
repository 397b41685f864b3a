/** The two connector interfaces (ERP side, shop side) and what each connector declares about itself. */

import { type MessageKey, message } from "@ep/contracts";
import type { AsyncBatchPolicy } from "./async-batch";
import { type BatchResult, ConnectorError } from "./errors";
import type { TransportFetch } from "./http";
import type { CallCounter, HttpLogger } from "./logging";
import type { MeteringPolicy } from "./metering";
import type * as M from "./model";
import type { RateBudget, RateLimitStore } from "./rate-limit";
import type { SqlTransport } from "./sql";
import type { ApiVersionPin } from "./version-pin";

export type ConnectorKind = "erp" | "shop";

/** One field of the connection settings form. */
export interface CredentialField {
  name: string;
  /** Turkish label shown on the settings form. */
  label: string;
  /** Turkish help text. */
  help?: string;
  secret: boolean;
  required: boolean;
  type?: "text" | "url" | "number" | "password";
  default?: string;
  placeholder?: string;
}

export interface BatchSizes {
  /** Items per stock write call. */
  stock?: number;
  /** Items per price write call. */
  prices?: number;
  /** Rows per read page. */
  page?: number;
  /**
   * Key ranges a full stock or price listing is split into and read at the same time (see
   * `ErpConnector.splitFullRead`): several reads in flight, still within the request budget.
   */
  readChains?: number;
  /** Products per product write call. */
  products?: number;
}

/** Shop writes a connector may lack: the system has no such call, or no artifact verifies one. */
export type ShopCapability =
  | "categoryWrite"
  | "productWrite"
  | "stockWrite"
  | "priceWrite"
  | "orderStatusWrite"
  | "invoiceWrite";

export interface ConnectorDescriptor {
  kind: ConnectorKind;
  /** The spec's type number (ERP 1..24, e-commerce 1..7). */
  type: number;
  /** The spec's label. */
  name: string;
  /** Short machine id, also the logging / rate-limit system name ("mikro", "ikas"). */
  system: string;
  implemented: boolean;
  /** No API: works through a configured SQL query / file mapping (the generic connector). */
  mapping?: boolean;
  /**
   * A shop with no API, connected through the files it exports and imports itself (JetStok): we write
   * the stock and price file it imports, and read the orders files the merchant exports from it.
   */
  fileShop?: boolean;
  credentials: CredentialField[];
  batch: BatchSizes;
  /** Request budget the connector keeps (the rate limiter's default). */
  budget: RateBudget;
  /** Only reachable from inside the customer's network: runs in the on-site agent. */
  onPremOnly: boolean;
  changeCursors?: M.ChangeCursorSupport;
  /**
   * Shop operations this connector does not do, each with the Turkish sentence the panel shows and
   * the engine gives as the reason it skips such a job. Absent = everything is supported.
   */
  unsupported?: Partial<Record<ShopCapability, string>>;
  /** The system bills calls (credits) or caps them per month: the engine meters and budgets its runs. */
  metering?: MeteringPolicy;
  notes?: string;
  /** A Turkish sentence the connection card shows beside the form (e.g. LucaPortal: no API, upload files). */
  notice?: string;
  /** The API version the connector speaks, with its vendor's end of support (the panel warns once past). */
  versionPin?: ApiVersionPin;
}

/** What the engine hands a connector when it builds one. */
export interface ConnectorContext {
  /** Company id: part of the rate limiter key. */
  companyId: string;
  /** Where the rate limiter keeps its state (the engine: the database; tests: in memory). */
  rateLimitStore: RateLimitStore;
  /** Override of the descriptor's budget (e.g. a benchmark against an emulator with a higher limit). */
  budget?: RateBudget;
  /** Override of the descriptor's batch sizes (never above what the system accepts). */
  batch?: BatchSizes;
  logger?: HttpLogger;
  counter?: CallCounter;
  timeoutMs?: number;
  retry?: { maxRetries?: number; baseDelayMs?: number; maxDelayMs?: number; maxRetryAfterMs?: number };
  now?: () => number;
  /** The transport (see `TransportFetch`): direct, guarded, or through the on-site agent. */
  fetch?: TransportFetch;
  /** The ERP's database, reached through the on-site agent (see `SqlTransport`); absent when not configured. */
  sql?: SqlTransport;
  /** Files the merchant gave (panel upload or the agent's watched folder): the generic file connector's source. */
  files?: FileSource;
  /** The company's files with a shop that has no API (`descriptor.fileShop`): stock file out, orders files in. */
  shopFiles?: ShopFileExchange;
  /**
   * Keeps credentials the connector obtained itself (a refreshed OAuth token pair) with the stored
   * connection, so the next run starts from them: `changed` holds only the fields that changed.
   */
  persistCredentials?: (changed: Credentials) => Promise<void>;
  /** How asynchronous batch results are polled (marketplaces; tests and benchmarks shorten it). */
  asyncBatch?: AsyncBatchPolicy;
}

export type Credentials = Record<string, string | undefined>;

export type SourceFileKind = "products" | "stock" | "prices";

/** The latest accepted file of a kind: its raw rows and the column mapping its check used. */
export interface SourceFile {
  id: number;
  fileName: string;
  source: "panel" | "agent";
  uploadedAt: string;
  /** Model field → file column. */
  mapping: Record<string, string>;
  rows: Record<string, unknown>[];
}

/**
 * Files in and out for the systems with no API (the server keeps them per company): the latest accepted
 * file per kind is read instead of a SQL query; orders go out as rows of an orders file, once per order.
 */
export interface FileSource {
  latest(kind: SourceFileKind): Promise<SourceFile | undefined>;
  /** Whether the order is already in an orders file (or waiting for the next one). */
  hasOrder(orderNo: string): Promise<boolean>;
  /** Records the order's rows for the orders file; false when it was there already (nothing doubled). */
  addOrder(orderNo: string, rows: Record<string, string | number | null>[]): Promise<boolean>;
  /** Writes the orders recorded and not yet in a file into a new orders file; its name, or undefined. */
  closeOrders(): Promise<{ fileName: string; orders: number } | undefined>;
}

/** One SKU's row of a file shop's stock and price file: the newest value of each field. */
export interface ShopStockFileRow {
  sku: string;
  qty?: number;
  price?: number;
  listPrice?: number;
  currency?: string;
}

/** An orders file the merchant exported from a file shop and uploaded here, with its raw rows. */
export interface ShopOrdersFile {
  id: number;
  fileName: string;
  uploadedAt: string;
  rows: Record<string, unknown>[];
}

/**
 * Files of a shop with no API (the server keeps them per company): absolute stock and prices go into one
 * stock and price file the merchant downloads and imports into the shop; the orders files the merchant
 * exports from the shop and uploads are read in the order they came.
 */
export interface ShopFileExchange {
  /** Merges rows into the stock and price file by SKU (a field a row does not name keeps its value). */
  putStockRows(rows: ShopStockFileRow[]): Promise<void>;
  /** Orders files with at least one accepted row uploaded after the file `afterId`, oldest first. */
  ordersFilesAfter(afterId: number | undefined, limit: number): Promise<ShopOrdersFile[]>;
}

export interface ConnectionInfo {
  ok: true;
  system: string;
  /** Which store / firm answered, in words for the settings screen. */
  description: string;
  storeName?: string;
  firm?: string;
  period?: string;
  details?: Record<string, unknown>;
}

export interface ErpOrderRef {
  /** ERP document id (e.g. Mikro "WEB-123"). */
  documentId: string;
  /** Our reference written into the ERP document (the shop order no). */
  ref: string;
  /** True when the order was already there (idempotent create). */
  existed: boolean;
  lineIds?: string[];
}

export interface ErpCustomerRef {
  /** ERP customer code (Mikro cari kodu). */
  code: string;
  existed: boolean;
}

export interface CreateSalesOrderInput {
  order: M.Order;
  /** ERP customer code the order is written to (from createCustomer). */
  customerCode: string;
  /** Stock location (depot) to sell from. */
  location?: string;
  /** Document series to use (Mikro evrak seri). */
  series?: string;
  /**
   * The marketplace the order came from (issue 37), for ERPs that keep it in a note; absent for the
   * shop's orders. The order no already carries the channel's prefix (`TY-…`).
   */
  channel?: string;
}

export interface ErpConnector {
  readonly descriptor: ConnectorDescriptor;
  testConnection(): Promise<ConnectionInfo>;
  listProducts(q?: M.PageQuery): Promise<M.Page<M.Product>>;
  listStock(q?: M.PageQuery & { locations?: string[] }): Promise<M.Page<M.StockLevel>>;
  listPrices(q?: M.PageQuery & { priceGroups?: string[] }): Promise<M.Page<M.Price>>;
  listCategories(q?: M.PageQuery): Promise<M.Page<M.Category>>;
  listPriceGroups(): Promise<M.PriceGroup[]>;
  listStockLocations(): Promise<M.StockLocation[]>;
  /**
   * A full listing split into up to `parts` disjoint key ranges: the first page token of each, to page on
   * with `listStock` / `listPrices` (same filters) at the same time. A record is in exactly one range, and
   * a stock SKU's warehouses all in the same one. Keyset pages cannot be asked for before the previous
   * answer, so this is how a reader keeps several reads in flight.
   */
  splitFullRead?(
    listing: "stock" | "prices",
    parts: number,
    q?: { locations?: string[]; priceGroups?: string[] },
  ): Promise<string[]>;
  /** Look an order up by our reference (shop order no). */
  findOrderByRef(ref: string): Promise<ErpOrderRef | null>;
  /** Create a customer; idempotent by `customer.ref`. */
  createCustomer(customer: M.Customer): Promise<ErpCustomerRef>;
  /** Create a sales order; idempotent by `order.orderNo` (looks up first). */
  createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef>;
  /** Invoices issued for an order (by our reference). */
  listInvoicesForOrder(ref: string): Promise<M.Invoice[]>;
  /**
   * Removes a sales order its channel cancelled (by our reference), where the ERP's API can; idempotent:
   * an order no longer there answers `absent`. ERPs without such a call leave it out.
   */
  cancelSalesOrder?(ref: string): Promise<"cancelled" | "absent">;
  /** Called once when a run ends (e.g. the file connector writes its orders file): lines for the run's report. */
  afterRun?(): Promise<string[]>;
}

/** The reading half of an ERP connector (Singer's split of reading and writing). */
export type ErpReads = Pick<
  ErpConnector,
  "listProducts" | "listStock" | "listPrices" | "listCategories" | "listPriceGroups" | "listStockLocations"
>;

/** The writing half: customers, orders, and the invoices issued for them (none where the API reads none). */
export type ErpOrderWrites = Pick<ErpConnector, "findOrderByRef" | "createCustomer" | "createSalesOrder"> &
  Partial<Pick<ErpConnector, "listInvoicesForOrder">>;

/**
 * An ERP connector assembled from a reading part and a writing part: every catalogue call goes to
 * `reading`, every order call to `writing`. A connector whose reads live in several parts overrides
 * just those methods; it always writes its own `testConnection`.
 */
export abstract class ComposedErpConnector implements ErpConnector {
  abstract readonly descriptor: ConnectorDescriptor;
  /** The stored settings and the engine's context: what the connector's parts are built from. */
  constructor(
    protected readonly credentials: Credentials,
    protected readonly ctx: ConnectorContext,
  ) {}
  abstract testConnection(): Promise<ConnectionInfo>;
  protected abstract get reading(): ErpReads;
  protected abstract get writing(): ErpOrderWrites;

  listProducts(q?: M.PageQuery): Promise<M.Page<M.Product>> {
    return this.reading.listProducts(q);
  }
  listStock(q?: M.PageQuery & { locations?: string[] }): Promise<M.Page<M.StockLevel>> {
    return this.reading.listStock(q);
  }
  listPrices(q?: M.PageQuery & { priceGroups?: string[] }): Promise<M.Page<M.Price>> {
    return this.reading.listPrices(q);
  }
  listCategories(q?: M.PageQuery): Promise<M.Page<M.Category>> {
    return this.reading.listCategories(q);
  }
  listPriceGroups(): Promise<M.PriceGroup[]> {
    return this.reading.listPriceGroups();
  }
  listStockLocations(): Promise<M.StockLocation[]> {
    return this.reading.listStockLocations();
  }
  findOrderByRef(ref: string): Promise<ErpOrderRef | null> {
    return this.writing.findOrderByRef(ref);
  }
  createCustomer(customer: M.Customer): Promise<ErpCustomerRef> {
    return this.writing.createCustomer(customer);
  }
  createSalesOrder(input: CreateSalesOrderInput): Promise<ErpOrderRef> {
    return this.writing.createSalesOrder(input);
  }
  listInvoicesForOrder(ref: string): Promise<M.Invoice[]> {
    return this.writing.listInvoicesForOrder?.(ref) ?? Promise.resolve([]);
  }
}

/**
 * The writing half of an ERP that is only a catalogue source (its API writes no orders or customers and
 * reads no invoices): every call fails as "unsupported" with the panel's reason, and nothing is sent.
 */
export function unsupportedOrderWrites(system: string, reason: MessageKey): Required<ErpOrderWrites> {
  const refuse = (operation: string): Promise<never> => {
    const text = message(reason);
    return Promise.reject(
      new ConnectorError(`${system} ${operation}: not supported`, {
        reason: "unsupported",
        system,
        operation,
        systemMessage: text,
        merchantMessage: text,
      }),
    );
  };
  return {
    findOrderByRef: () => refuse("findOrderByRef"),
    createCustomer: () => refuse("createCustomer"),
    createSalesOrder: () => refuse("createSalesOrder"),
    listInvoicesForOrder: () => refuse("listInvoicesForOrder"),
  };
}

export interface ShopCategory {
  id: string;
  name: string;
  parentId?: string;
}

/** Shop ids of a product and of its variants by sku. */
export interface ShopProductRef {
  productId: string;
  variants: Record<string, string>;
}

export interface StockUpdate {
  sku: string;
  locationId: string;
  qty: number;
  productId?: string;
  variantId?: string;
}

export interface PriceUpdate {
  sku: string;
  /** Shop price list id; undefined = the default list. */
  priceListId?: string;
  amount: number;
  /** Price before discount; when set, `amount` is the discounted price. */
  listAmount?: number;
  currency: string;
  productId?: string;
  variantId?: string;
}

export interface ProductWriteInput {
  product: M.Product;
  /** Shop category id to put the product in (the engine maps category paths). */
  categoryId?: string;
  /** Initial prices (default list), optional. */
  prices?: Array<{ sku: string; amount: number; currency: string; listAmount?: number }>;
}

export interface OrderStatusUpdate {
  /** Shop-native status code (from listOrderStatuses). */
  status: string;
  trackingNumber?: string;
  cargoCompany?: string;
  trackingUrl?: string;
}

export interface InvoiceAttachment {
  invoice: M.Invoice;
}

/** One attribute a marketplace category asks for (its own list): what product listing maps values to. */
export interface CategoryAttribute {
  id: string;
  name: string;
  required: boolean;
  /** Splits a product into variants (Trendyol varianter/slicer, Hepsiburada variant attributes). */
  variant: boolean;
  /** A free value is accepted besides the listed ones. */
  allowCustom: boolean;
  values: Array<{ id: string; name: string }>;
}

export interface ShopConnector {
  readonly descriptor: ConnectorDescriptor;
  testConnection(): Promise<ConnectionInfo>;
  listCategories(): Promise<ShopCategory[]>;
  /** A marketplace category's attributes, from the marketplace's own list (absent where a shop has none). */
  listCategoryAttributes?(categoryId: string): Promise<CategoryAttribute[]>;
  createCategory(input: { name: string; parentId?: string }): Promise<ShopCategory>;
  /** Shop ids for skus (the engine's id map, refreshed on "unknown item"). */
  findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>>;
  createProduct(input: ProductWriteInput): Promise<ShopProductRef>;
  /** Update name, brand, category, barcodes, variants; keeps prices and stock the update does not name. */
  updateProduct(productId: string, input: ProductWriteInput): Promise<ShopProductRef>;
  /** Absolute quantities, in batches of `descriptor.batch.stock`. */
  setStock(items: StockUpdate[]): Promise<BatchResult>;
  /** Absolute prices, in batches of `descriptor.batch.prices`. */
  setPrices(items: PriceUpdate[]): Promise<BatchResult>;
  listOrders(q?: M.PageQuery): Promise<M.Page<M.Order>>;
  updateOrderStatus(orderId: string, update: OrderStatusUpdate): Promise<void>;
  attachInvoice(orderId: string, attachment: InvoiceAttachment): Promise<void>;
  listOrderStatuses(): Promise<M.Option[]>;
  listPaymentTypes(): Promise<M.Option[]>;
  listPriceLists(): Promise<M.PriceGroup[]>;
  listSalesChannels(): Promise<M.Option[]>;
  listStockLocations(): Promise<M.StockLocation[]>;
}

export type ErpConnectorFactory = (credentials: Credentials, ctx: ConnectorContext) => ErpConnector;
export type ShopConnectorFactory = (credentials: Credentials, ctx: ConnectorContext) => ShopConnector;

/** One verified webhook delivery: who sent it (for de-duplication) and what happened. */
export interface WebhookDelivery {
  /**
   * The de-duplication key, built only from what the vendor signs: a delivery id the signature does not
   * cover can be changed by anyone replaying a captured delivery, so such systems give a hash of the
   * signed content instead (the server then counts it once within a window). Unsigned systems
   * (`"url-token"`) give what identifies the event (order id + status).
   */
  deliveryId: string;
  topic: string;
  /** Whether the topic is about orders (the server then starts an order transfer). */
  isOrder: boolean;
  orderIds?: string[];
}

export interface WebhookRegistration {
  /** Topics now subscribed to the callback. */
  topics: string[];
}

export type WebhookHeaders = Record<string, string | string[] | undefined>;

/**
 * A shop that publishes order webhooks: registering our per-connection callback and checking a
 * delivery's signature. Deliveries are only a trigger; polling stays the source of truth.
 */
export interface ShopWebhooks {
  /**
   * How a delivery is authenticated. `"hmac"` (the default): `verify` checks the signature with the
   * signing secret before anything else. `"url-token"`: the shop documents no signature, so the
   * unguessable token in the callback URL is the only proof; `verify` then only reads a de-duplication
   * key and the server caps how many runs deliveries may start (Ideasoft).
   */
  authentication?: "hmac" | "url-token";
  /** The key deliveries are signed with, from the stored credentials (undefined: cannot be checked). */
  signingSecret(credentials: Credentials): string | undefined;
  /** Subscribe `callbackUrl` to the order topics; idempotent (an existing subscription is kept). */
  register(
    credentials: Credentials,
    ctx: ConnectorContext,
    callbackUrl: string,
  ): Promise<WebhookRegistration>;
  /**
   * The delivery when its signature over the raw body is right, else null (nothing else is read).
   * With `"url-token"` authentication `secret` is empty and the answer is never null.
   */
  verify(rawBody: Buffer, headers: WebhookHeaders, secret: string): WebhookDelivery | null;
}
