/** IKAS shop connector: Admin GraphQL API v1 with a client-credentials token. */

import type {
  ConnectionInfo,
  ConnectorContext,
  Credentials,
  InvoiceAttachment,
  OrderStatusUpdate,
  PriceUpdate,
  ProductWriteInput,
  ShopCategory,
  ShopConnector,
  ShopProductRef,
  StockUpdate,
} from "../sdk/connector";
import { type BatchResult, ConnectorError, type FailureReason, parseRetryAfter } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import type { CallKind } from "../sdk/logging";
import type {
  Address,
  Option,
  Order,
  OrderLine,
  Page,
  PageQuery,
  PriceGroup,
  StockLocation,
} from "../sdk/model";
import {
  chunk,
  createConnectorHttp,
  decodeToken,
  encodeToken,
  requireCredentials,
  round2,
} from "../sdk/util";
import { IKAS_DEFAULT_API_URL, IKAS_DEFAULT_PRICE_LIST, ikasDescriptor, ikasTokenUrl } from "./descriptor";

interface GqlError {
  message?: string;
  extensions?: { code?: string; invalidInputIndexes?: number[]; [k: string]: unknown };
}
interface GqlBody<T> {
  data?: T | null;
  errors?: GqlError[];
}

const CODE_REASONS: Record<string, FailureReason> = {
  UNAUTHORIZED: "auth",
  UNAUTHENTICATED: "auth",
  FORBIDDEN: "auth",
  VALIDATION_ERROR: "validation",
  BAD_USER_INPUT: "validation",
  GRAPHQL_VALIDATION_FAILED: "validation",
  GRAPHQL_PARSE_FAILED: "validation",
  NOT_FOUND: "not_found",
  LOCKED: "lock",
  TOO_MANY_REQUESTS: "rate_limited",
  TOO_MANY_ERRORS: "blocked",
  INTERNAL_SERVER_ERROR: "server_error",
  SERVICE_UNAVAILABLE: "unavailable",
  TIMEOUT: "timeout",
};

/** Classify an IKAS answer: errors inside HTTP 200, 401, 429 (rate limit or error-rate block). */
export function classifyIkasResponse(res: HttpResponse, operation: string): ConnectorError | undefined {
  const body = (res.json ?? undefined) as GqlBody<unknown> | undefined;
  const first = body?.errors?.[0];
  if (res.status >= 500 && !first) return undefined;
  if (!first && res.status < 400) return undefined;
  const code = first?.extensions?.code;
  let reason: FailureReason | undefined = code ? CODE_REASONS[code] : undefined;
  if (res.status === 401 || res.status === 403) reason = "auth";
  else if (res.status === 429) reason = code === "TOO_MANY_ERRORS" ? "blocked" : "rate_limited";
  if (!reason) {
    const msg = first?.message ?? "";
    if (/timed? ?out|temporar|try again|unavailable/i.test(msg)) reason = "server_error";
    else if (/lock/i.test(msg)) reason = "lock";
    else if (/not found|bulunamad/i.test(msg)) reason = "not_found";
    else if (res.status >= 500) reason = "server_error";
    // Unknown errors are permanent: IKAS blocks clients with many errors, so never retry them blindly.
    else reason = "validation";
  }
  return new ConnectorError(`ikas ${operation}: ${first?.message ?? `HTTP ${res.status}`}`, {
    reason,
    httpStatus: res.status,
    systemMessage: first?.message ?? res.text.slice(0, 300),
    systemCode: code,
    retryAfterMs: parseRetryAfter(res.headers.get("retry-after")),
    system: "ikas",
    operation,
    details: first?.extensions,
  });
}

/** Order scans re-read this much before the cursor, so an order saved at the edge is never missed. */
const ORDER_CURSOR_OVERLAP_MS = 5 * 60_000;

const ORDER_FIELDS = `
  id orderNumber status orderPaymentStatus orderPackageStatus currencyCode totalPrice totalFinalPrice
  orderedAt createdAt updatedAt salesChannelId note
  customer { id firstName lastName email phone }
  billingAddress { ...Addr }
  shippingAddress { ...Addr }
  shippingLines { title price finalPrice }
  paymentMethods { type paymentGatewayName price }
  orderLineItems { id quantity price finalPrice discountPrice taxValue variant { id sku name productId barcodeList } }
  orderPackages { id orderPackageNumber orderPackageFulfillStatus orderLineItemIds trackingInfo { trackingNumber cargoCompany trackingLink } }
`;
const ADDRESS_FRAGMENT = `
  fragment Addr on OrderAddress {
    firstName lastName company addressLine1 addressLine2 city { name } district { name } country { name }
    postalCode phone identityNumber taxNumber taxOffice
  }
`;

interface IkasAddressDto {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  addressLine1?: string | null;
  addressLine2?: string | null;
  city?: { name?: string | null } | null;
  district?: { name?: string | null } | null;
  country?: { name?: string | null } | null;
  postalCode?: string | null;
  phone?: string | null;
  identityNumber?: string | null;
  taxNumber?: string | null;
  taxOffice?: string | null;
}

interface IkasOrderDto {
  id: string;
  orderNumber: string | null;
  status: string;
  orderPaymentStatus: string | null;
  orderPackageStatus: string | null;
  currencyCode: string;
  totalPrice: number;
  totalFinalPrice: number;
  orderedAt: number | null;
  createdAt: number;
  updatedAt: number;
  salesChannelId: string | null;
  note: string | null;
  customer: {
    id: string | null;
    firstName: string | null;
    lastName: string | null;
    email: string | null;
    phone: string | null;
  } | null;
  billingAddress: IkasAddressDto | null;
  shippingAddress: IkasAddressDto | null;
  shippingLines: Array<{ title: string | null; price: number | null; finalPrice: number | null }> | null;
  paymentMethods: Array<{
    type: string | null;
    paymentGatewayName: string | null;
    price: number | null;
  }> | null;
  orderLineItems: Array<{
    id: string;
    quantity: number;
    price: number;
    finalPrice: number | null;
    discountPrice: number | null;
    taxValue: number | null;
    variant: {
      id: string;
      sku: string | null;
      name: string | null;
      productId: string | null;
      barcodeList: string[] | null;
    };
  }>;
  orderPackages: Array<{ id: string; orderPackageFulfillStatus: string }> | null;
}

interface IkasProductDto {
  id: string;
  name: string;
  description: string | null;
  type: string;
  brandId: string | null;
  categoryIds: string[];
  salesChannelIds: string[];
  variants: Array<{
    id: string;
    sku: string | null;
    barcodeList: string[];
    isActive: boolean;
    prices: Array<{
      priceListId: string | null;
      sellPrice: number;
      discountPrice: number | null;
      buyPrice: number | null;
      currency: string | null;
    }>;
    variantValues: Array<{ variantTypeName: string; variantValueName: string }>;
  }>;
}

const PRODUCT_FIELDS = `
  id name description type brandId categoryIds salesChannelIds
  variants { id sku barcodeList isActive prices { priceListId sellPrice discountPrice buyPrice currency }
             variantValues { variantTypeName variantValueName } }
`;

/** Turkish names of the package statuses the connector can set. */
const STATUS_LABELS: Record<string, string> = {
  UNFULFILLED: "Hazırlanmadı",
  READY_FOR_SHIPMENT: "Kargoya Hazır",
  FULFILLED: "Kargoya Verildi",
  DELIVERED: "Teslim Edildi",
  UNABLE_TO_DELIVER: "Teslim Edilemedi",
  READY_FOR_PICK_UP: "Mağazadan Teslime Hazır",
  CANCELLED: "İptal Edildi",
  CANCEL_REQUESTED: "İptal Talep Edildi",
  CANCEL_REJECTED: "İptal Reddedildi",
  REFUND_REQUESTED: "İade Talep Edildi",
  REFUND_REQUEST_ACCEPTED: "İade Kabul Edildi",
  REFUND_REJECTED: "İade Reddedildi",
  ERROR: "Hata",
};

interface OrderPageToken {
  /** updatedAt lower bound (inclusive). */
  gte: number;
  page: number;
  /** Ids already returned with updatedAt == gte. */
  seen: string[];
  /** Highest updatedAt seen so far in this scan. */
  max: number;
}

function toAddress(a: IkasAddressDto | null | undefined): Address {
  return {
    firstName: a?.firstName ?? "",
    lastName: a?.lastName ?? "",
    company: a?.company ?? undefined,
    line1: a?.addressLine1 ?? "",
    line2: a?.addressLine2 ?? undefined,
    district: a?.district?.name ?? undefined,
    city: a?.city?.name ?? "",
    postalCode: a?.postalCode ?? undefined,
    country: a?.country?.name ?? "Türkiye",
    phone: a?.phone ?? undefined,
  };
}

export function mapIkasOrder(o: IkasOrderDto): Order {
  const lines: OrderLine[] = o.orderLineItems.map((l) => {
    const total = l.finalPrice ?? round2(l.price * l.quantity);
    return {
      sku: l.variant.sku ?? "",
      name: l.variant.name ?? "",
      qty: l.quantity,
      unitPrice: l.price,
      vatRate: l.taxValue ?? 20,
      discount: round2(Math.max(0, l.price * l.quantity - total)),
      total,
      externalProductId: l.variant.productId ?? undefined,
      externalVariantId: l.variant.id,
    };
  });
  const shippingCost = (o.shippingLines ?? []).reduce((a, s) => a + (s.finalPrice ?? s.price ?? 0), 0);
  const tax = round2(lines.reduce((a, l) => a + l.total - l.total / (1 + l.vatRate / 100), 0));
  const subtotal = round2(lines.reduce((a, l) => a + l.unitPrice * l.qty, 0));
  const discount = round2(lines.reduce((a, l) => a + l.discount, 0));
  const billing = toAddress(o.billingAddress);
  const firstName = o.customer?.firstName ?? billing.firstName;
  const lastName = o.customer?.lastName ?? billing.lastName;
  const taxNumber = o.billingAddress?.taxNumber ?? o.billingAddress?.identityNumber ?? undefined;
  return {
    id: o.id,
    orderNo: o.orderNumber ?? o.id,
    createdAt: new Date(o.orderedAt ?? o.createdAt).toISOString(),
    updatedAt: new Date(o.updatedAt).toISOString(),
    status: o.orderPackageStatus ?? o.status,
    paymentStatus: o.orderPaymentStatus ?? undefined,
    paymentType: o.paymentMethods?.[0]?.paymentGatewayName ?? o.paymentMethods?.[0]?.type ?? undefined,
    salesChannel: o.salesChannelId ?? undefined,
    currency: o.currencyCode,
    customer: {
      ref: `ikas-${o.customer?.id ?? o.customer?.email ?? o.id}`,
      firstName,
      lastName,
      companyName: o.billingAddress?.company ?? undefined,
      email: o.customer?.email ?? undefined,
      phone: o.customer?.phone ?? billing.phone,
      taxNumber,
      taxOffice: o.billingAddress?.taxOffice ?? undefined,
      isCompany: Boolean(o.billingAddress?.taxNumber),
      billingAddress: billing,
      shippingAddress: toAddress(o.shippingAddress),
    },
    billingAddress: billing,
    shippingAddress: toAddress(o.shippingAddress),
    lines,
    shipping: { method: o.shippingLines?.[0]?.title ?? undefined, cost: round2(shippingCost) },
    totals: { subtotal, discount, shipping: round2(shippingCost), tax, grandTotal: o.totalFinalPrice },
    note: o.note ?? undefined,
  };
}

export class IkasConnector implements ShopConnector {
  readonly descriptor = ikasDescriptor;
  private readonly http: HttpClient;
  private readonly creds: Record<string, string>;
  private readonly apiUrl: string;
  private readonly tokenUrl: string;
  private readonly now: () => number;
  private token?: { value: string; expiresAt: number; ttlMs: number };
  private tokenPromise?: Promise<string>;
  private brandCache?: Map<string, string>;
  private readonly batchStock: number;
  private readonly batchPrices: number;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    this.creds = requireCredentials("ikas", ikasDescriptor.credentials, credentials);
    const storeName = this.creds.storeName ?? "";
    this.apiUrl = this.creds.apiUrl ?? IKAS_DEFAULT_API_URL;
    this.tokenUrl = this.creds.tokenUrl ?? ikasTokenUrl(storeName);
    this.now = ctx.now ?? Date.now;
    this.http = createConnectorHttp(ikasDescriptor, ctx, { secrets: [this.creds.clientSecret ?? ""] });
    this.batchStock = Math.min(
      ctx.batch?.stock ?? Number.POSITIVE_INFINITY,
      ikasDescriptor.batch.stock ?? 1000,
    );
    this.batchPrices = Math.min(
      ctx.batch?.prices ?? Number.POSITIVE_INFINITY,
      ikasDescriptor.batch.prices ?? 3000,
    );
  }

  // ---- auth ----

  private async fetchToken(): Promise<string> {
    const res = await this.http.request({
      url: this.tokenUrl,
      operation: "oauth/token",
      kind: "read",
      skipRateLimit: true,
      body: {
        form: {
          grant_type: "client_credentials",
          client_id: this.creds.clientId ?? "",
          client_secret: this.creds.clientSecret ?? "",
        },
      },
      classify: (r) => {
        if (r.status === 400 || r.status === 401 || r.status === 403) {
          const b = (r.json ?? {}) as { error?: string; error_description?: string };
          return new ConnectorError("ikas: token request refused", {
            reason: "auth",
            httpStatus: r.status,
            systemCode: b.error,
            systemMessage: b.error_description ?? b.error ?? r.text.slice(0, 200),
            system: "ikas",
            operation: "oauth/token",
          });
        }
        return undefined;
      },
    });
    const b = (res.json ?? {}) as { access_token?: string; expires_in?: number };
    if (!b.access_token) {
      throw new ConnectorError("ikas: token answer without access_token", {
        reason: "bad_response",
        system: "ikas",
        systemMessage: res.text.slice(0, 200),
      });
    }
    const ttlMs = (b.expires_in ?? 14_400) * 1000;
    this.http.addSecret(b.access_token);
    this.token = { value: b.access_token, expiresAt: this.now() + ttlMs, ttlMs };
    return b.access_token;
  }

  private async accessToken(): Promise<string> {
    const t = this.token;
    // Refresh before expiry: 5 minutes early, or a tenth of the lifetime for short-lived tokens.
    if (t && this.now() < t.expiresAt - Math.min(300_000, t.ttlMs / 10)) return t.value;
    this.tokenPromise ??= this.fetchToken().finally(() => {
      this.tokenPromise = undefined;
    });
    return this.tokenPromise;
  }

  private async gql<T>(
    operation: string,
    kind: CallKind,
    query: string,
    variables?: Record<string, unknown>,
    opts: { idempotent?: boolean } = {},
  ): Promise<T> {
    const res = await this.http.request({
      url: this.apiUrl,
      operation,
      kind,
      idempotent: opts.idempotent,
      body: { json: { query, variables } },
      headers: async () => ({ authorization: `Bearer ${await this.accessToken()}` }),
      onAuthFailure: async () => {
        this.token = undefined;
        return true;
      },
      classify: (r) => classifyIkasResponse(r, operation),
    });
    const body = res.json as GqlBody<T> | undefined;
    if (!body?.data) {
      throw new ConnectorError(`ikas ${operation}: answer without data`, {
        reason: "bad_response",
        system: "ikas",
        operation,
        systemMessage: res.text.slice(0, 300),
      });
    }
    return body.data;
  }

  // ---- connection, settings lists ----

  async testConnection(): Promise<ConnectionInfo> {
    const d = await this.gql<{ getMerchant: { id: string; storeName: string; merchantName: string | null } }>(
      "getMerchant",
      "read",
      "query { getMerchant { id storeName merchantName } }",
    );
    return {
      ok: true,
      system: "ikas",
      storeName: d.getMerchant.storeName,
      description: `ikas mağazası: ${d.getMerchant.storeName}${d.getMerchant.merchantName ? ` (${d.getMerchant.merchantName})` : ""}`,
      details: { merchantId: d.getMerchant.id },
    };
  }

  async listOrderStatuses(): Promise<Option[]> {
    const d = await this.gql<{ __type: { enumValues: Array<{ name: string }> } | null }>(
      "__type",
      "read",
      'query { __type(name: "OrderPackageFulfillStatusEnum") { enumValues { name } } }',
    );
    return (d.__type?.enumValues ?? []).map((v) => ({ id: v.name, name: STATUS_LABELS[v.name] ?? v.name }));
  }

  async listPaymentTypes(): Promise<Option[]> {
    const d = await this.gql<{ listPaymentGateway: Array<{ id: string; name: string }> }>(
      "listPaymentGateway",
      "read",
      "query { listPaymentGateway { id name paymentMethodType } }",
    );
    return d.listPaymentGateway.map((g) => ({ id: g.id, name: g.name }));
  }

  async listPriceLists(): Promise<PriceGroup[]> {
    const d = await this.gql<{
      listPriceList: Array<{ id: string; name: string; currencyCode: string | null }>;
    }>("listPriceList", "read", "query { listPriceList { id name currencyCode } }");
    return [
      {
        id: IKAS_DEFAULT_PRICE_LIST,
        name: "Varsayılan Fiyat Listesi",
        currency: "TRY",
        vatIncluded: true,
        isDefault: true,
      },
      ...d.listPriceList.map((p) => ({
        id: p.id,
        name: p.name,
        currency: p.currencyCode ?? undefined,
        vatIncluded: true,
      })),
    ];
  }

  async listSalesChannels(): Promise<Option[]> {
    const d = await this.gql<{ listSalesChannel: Array<{ id: string; name: string }> }>(
      "listSalesChannel",
      "read",
      "query { listSalesChannel { id name type } }",
    );
    return d.listSalesChannel.map((s) => ({ id: s.id, name: s.name }));
  }

  async listStockLocations(): Promise<StockLocation[]> {
    const d = await this.gql<{ listStockLocation: Array<{ id: string; name: string }> }>(
      "listStockLocation",
      "read",
      "query { listStockLocation { id name } }",
    );
    return d.listStockLocation.map((s) => ({ id: s.id, name: s.name }));
  }

  // ---- categories ----

  async listCategories(): Promise<ShopCategory[]> {
    const d = await this.gql<{ listCategory: Array<{ id: string; name: string; parentId: string | null }> }>(
      "listCategory",
      "read",
      "query { listCategory { id name parentId } }",
    );
    return d.listCategory.map((c) => ({ id: c.id, name: c.name, parentId: c.parentId ?? undefined }));
  }

  async createCategory(input: { name: string; parentId?: string }): Promise<ShopCategory> {
    const d = await this.gql<{ saveCategory: { id: string; name: string; parentId: string | null } }>(
      "saveCategory",
      "write",
      "mutation($input: CategoryInput!) { saveCategory(input: $input) { id name parentId } }",
      { input: { name: input.name, parentId: input.parentId ?? null } },
    );
    return {
      id: d.saveCategory.id,
      name: d.saveCategory.name,
      parentId: d.saveCategory.parentId ?? undefined,
    };
  }

  // ---- products ----

  async findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    const out = new Map<string, { productId: string; variantId: string }>();
    for (const part of chunk([...new Set(skus)], 200)) {
      const d = await this.gql<{
        listProduct: { data: Array<{ id: string; variants: Array<{ id: string; sku: string | null }> }> };
      }>(
        "listProduct",
        "read",
        "query($skus: [String!], $limit: Int) { listProduct(sku: { in: $skus }, pagination: { limit: $limit, page: 1 }) { data { id variants { id sku } } } }",
        { skus: part, limit: 200 },
      );
      for (const p of d.listProduct.data) {
        for (const v of p.variants) if (v.sku) out.set(v.sku, { productId: p.id, variantId: v.id });
      }
    }
    return out;
  }

  private async brandId(name: string | undefined): Promise<string | null> {
    if (!name) return null;
    if (!this.brandCache) {
      const d = await this.gql<{ listProductBrand: Array<{ id: string; name: string }> }>(
        "listProductBrand",
        "read",
        "query { listProductBrand { id name } }",
      );
      this.brandCache = new Map(d.listProductBrand.map((b) => [b.name.toLocaleLowerCase("tr-TR"), b.id]));
    }
    const key = name.toLocaleLowerCase("tr-TR");
    const hit = this.brandCache.get(key);
    if (hit) return hit;
    const d = await this.gql<{ saveProductBrand: { id: string } }>(
      "saveProductBrand",
      "write",
      "mutation($input: ProductBrandInput!) { saveProductBrand(input: $input) { id } }",
      { input: { name } },
    );
    this.brandCache.set(key, d.saveProductBrand.id);
    return d.saveProductBrand.id;
  }

  private async saveProduct(input: Record<string, unknown>): Promise<ShopProductRef> {
    const d = await this.gql<{
      saveProduct: { id: string; variants: Array<{ id: string; sku: string | null }> };
    }>(
      "saveProduct",
      "write",
      "mutation($input: ProductInput!) { saveProduct(input: $input) { id variants { id sku } } }",
      { input },
    );
    const variants: Record<string, string> = {};
    for (const v of d.saveProduct.variants) if (v.sku) variants[v.sku] = v.id;
    return { productId: d.saveProduct.id, variants };
  }

  async createProduct(input: ProductWriteInput): Promise<ShopProductRef> {
    const p = input.product;
    const brandId = await this.brandId(p.brand);
    const prices = new Map((input.prices ?? []).map((x) => [x.sku, x]));
    try {
      return await this.saveProduct({
        name: p.name,
        description: p.description ?? null,
        type: "PHYSICAL",
        brandId,
        categoryIds: input.categoryId ? [input.categoryId] : [],
        variants: p.variants.map((v) => {
          const price = prices.get(v.sku);
          return {
            sku: v.sku,
            barcodeList: v.barcodes,
            isActive: v.isActive ?? p.isActive,
            prices: price
              ? [
                  {
                    sellPrice: price.listAmount ?? price.amount,
                    discountPrice: price.listAmount !== undefined ? price.amount : null,
                    currency: price.currency,
                    priceListId: null,
                  },
                ]
              : [],
            variantValues: Object.entries(v.options).map(([k, val]) => ({
              variantTypeName: k,
              variantValueName: val,
            })),
          };
        }),
      });
    } catch (e) {
      // Created before (e.g. an earlier answer was lost): the shop refuses the duplicate SKU. Look it up.
      if (
        e instanceof ConnectorError &&
        e.reason === "validation" &&
        /sku already exists/i.test(e.systemMessage ?? "")
      ) {
        const ids = await this.findProductsBySku(p.variants.map((v) => v.sku));
        const first = ids.get(p.variants[0]?.sku ?? "");
        if (first) {
          const variants: Record<string, string> = {};
          for (const [sku, id] of ids) if (id.productId === first.productId) variants[sku] = id.variantId;
          return { productId: first.productId, variants };
        }
      }
      throw e;
    }
  }

  async updateProduct(productId: string, input: ProductWriteInput): Promise<ShopProductRef> {
    const d = await this.gql<{ listProduct: { data: IkasProductDto[] } }>(
      "listProduct",
      "read",
      `query($id: String!) { listProduct(id: { eq: $id }, pagination: { limit: 1, page: 1 }) { data { ${PRODUCT_FIELDS} } } }`,
      { id: productId },
    );
    const current = d.listProduct.data[0];
    if (!current) {
      throw new ConnectorError(`ikas: product ${productId} not found`, {
        reason: "unknown_item",
        system: "ikas",
        operation: "updateProduct",
        itemKeys: [input.product.sku],
      });
    }
    const p = input.product;
    const brandId = p.brand ? await this.brandId(p.brand) : current.brandId;
    const prices = new Map((input.prices ?? []).map((x) => [x.sku, x]));
    const bySku = new Map(current.variants.filter((v) => v.sku).map((v) => [v.sku ?? "", v]));
    interface VariantOut {
      id: string | undefined;
      sku: string | null;
      barcodeList: string[];
      isActive: boolean;
      prices: IkasProductDto["variants"][number]["prices"];
      variantValues: Array<{ variantTypeName: string; variantValueName: string }>;
    }
    const keep = (v: IkasProductDto["variants"][number]): VariantOut => ({
      id: v.id,
      sku: v.sku,
      barcodeList: v.barcodeList,
      isActive: v.isActive,
      prices: v.prices.map((x) => ({ ...x })),
      variantValues: v.variantValues,
    });
    // saveProduct replaces the whole product: carry over every price list row and every variant we do not change.
    const variants = p.variants.map((v): VariantOut => {
      const old = bySku.get(v.sku);
      bySku.delete(v.sku);
      const price = prices.get(v.sku);
      let rows = old ? old.prices.map((x) => ({ ...x })) : [];
      if (price) {
        rows = rows.filter((x) => x.priceListId !== null);
        rows.push({
          priceListId: null,
          sellPrice: price.listAmount ?? price.amount,
          discountPrice: price.listAmount !== undefined ? price.amount : null,
          buyPrice: null,
          currency: price.currency,
        });
      }
      return {
        id: old?.id,
        sku: v.sku,
        barcodeList: v.barcodes,
        isActive: v.isActive ?? p.isActive,
        prices: rows,
        variantValues: Object.entries(v.options).map(([k, val]) => ({
          variantTypeName: k,
          variantValueName: val,
        })),
      };
    });
    for (const rest of bySku.values()) variants.push(keep(rest));
    for (const v of current.variants) if (!v.sku) variants.push(keep(v));
    return this.saveProduct({
      id: current.id,
      name: p.name,
      description: p.description ?? current.description,
      type: current.type,
      brandId,
      categoryIds: input.categoryId ? [input.categoryId] : current.categoryIds,
      salesChannelIds: current.salesChannelIds,
      variants,
    });
  }

  // ---- stock and prices ----

  private async resolveIds<T extends { sku: string; productId?: string; variantId?: string }>(
    items: T[],
  ): Promise<{ ready: Array<T & { productId: string; variantId: string }>; unknown: T[] }> {
    const missing = items.filter((i) => !i.productId || !i.variantId).map((i) => i.sku);
    const ids = missing.length > 0 ? await this.findProductsBySku(missing) : new Map();
    const ready: Array<T & { productId: string; variantId: string }> = [];
    const unknown: T[] = [];
    for (const i of items) {
      if (i.productId && i.variantId) ready.push({ ...i, productId: i.productId, variantId: i.variantId });
      else {
        const hit = ids.get(i.sku);
        if (hit) ready.push({ ...i, productId: hit.productId, variantId: hit.variantId });
        else unknown.push(i);
      }
    }
    return { ready, unknown };
  }

  /**
   * Send one batch; on a validation error that names the bad rows, report those and send the rest once
   * more (a corrected request, not a blind retry).
   */
  private async sendBatch<T extends { sku: string }>(
    rows: T[],
    send: (rows: T[]) => Promise<void>,
    result: BatchResult,
  ): Promise<ConnectorError | undefined> {
    try {
      result.calls++;
      await send(rows);
      result.applied += rows.length;
      return undefined;
    } catch (e) {
      if (!(e instanceof ConnectorError)) throw e;
      const idx = e.reason === "validation" ? this.invalidIndexes(e) : undefined;
      if (idx && idx.length > 0) {
        const bad = new Set(idx);
        const codes = new Map<number, string>();
        const inputErrors = e.details?.inputErrors;
        if (Array.isArray(inputErrors)) {
          for (const x of inputErrors as Array<{ index?: unknown; code?: unknown }>) {
            if (typeof x.index === "number" && typeof x.code === "string") codes.set(x.index, x.code);
          }
        }
        rows.forEach((r, i) => {
          if (bad.has(i)) {
            // NOT_FOUND rows are unknown items (refresh the id map); other refusals are validation.
            const reason = codes.size === 0 || codes.get(i) === "NOT_FOUND" ? "unknown_item" : "validation";
            result.failed.push({ key: r.sku, error: e.with({ reason, itemKeys: [r.sku] }) });
          }
        });
        const rest = rows.filter((_, i) => !bad.has(i));
        return rest.length > 0 ? this.sendBatch(rest, send, result) : undefined;
      }
      for (const r of rows) result.failed.push({ key: r.sku, error: e.with({ itemKeys: [r.sku] }) });
      // Systemic failures stop the whole run of batches.
      return e.reason === "auth" || e.reason === "blocked" || e.reason === "rate_limited" ? e : undefined;
    }
  }

  private invalidIndexes(e: ConnectorError): number[] | undefined {
    const fromDetails = e.details?.invalidInputIndexes;
    if (Array.isArray(fromDetails)) return fromDetails.filter((n): n is number => typeof n === "number");
    const m = /index ([\d, ]+)/i.exec(e.systemMessage ?? "");
    if (!m?.[1]) return undefined;
    return m[1]
      .split(",")
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isInteger(n));
  }

  async setStock(items: StockUpdate[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const { ready, unknown } = await this.resolveIds(items);
    for (const u of unknown) {
      result.failed.push({
        key: u.sku,
        error: new ConnectorError(`ikas: no product with sku ${u.sku}`, {
          reason: "unknown_item",
          system: "ikas",
          operation: "saveProductStockLocations",
          itemKeys: [u.sku],
        }),
      });
    }
    const batches = chunk(ready, this.batchStock);
    for (let b = 0; b < batches.length; b++) {
      const rows = batches[b] ?? [];
      const stop = await this.sendBatch(
        rows,
        async (part) => {
          await this.gql<{ saveProductStockLocations: boolean }>(
            "saveProductStockLocations",
            "write",
            "mutation($input: SaveStockLocationsInput!) { saveProductStockLocations(input: $input) }",
            {
              input: {
                productStockLocationInputs: part.map((r) => ({
                  productId: r.productId,
                  variantId: r.variantId,
                  stockLocationId: r.locationId,
                  stockCount: r.qty,
                })),
              },
            },
            // Absolute quantities: sending twice is harmless.
            { idempotent: true },
          );
        },
        result,
      );
      if (stop) {
        for (const rest of batches.slice(b + 1).flat())
          result.failed.push({ key: rest.sku, error: stop.with({ itemKeys: [rest.sku] }) });
        break;
      }
    }
    return result;
  }

  async setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const { ready, unknown } = await this.resolveIds(items);
    for (const u of unknown) {
      result.failed.push({
        key: u.sku,
        error: new ConnectorError(`ikas: no product with sku ${u.sku}`, {
          reason: "unknown_item",
          system: "ikas",
          operation: "saveVariantPrices",
          itemKeys: [u.sku],
        }),
      });
    }
    const byList = new Map<string, typeof ready>();
    for (const r of ready) {
      const k = r.priceListId ?? IKAS_DEFAULT_PRICE_LIST;
      const list = byList.get(k) ?? [];
      list.push(r);
      byList.set(k, list);
    }
    outer: for (const [listId, rowsOfList] of byList) {
      const batches = chunk(rowsOfList, this.batchPrices);
      for (let b = 0; b < batches.length; b++) {
        const stop = await this.sendBatch(
          batches[b] ?? [],
          async (part) => {
            await this.gql<{ saveVariantPrices: boolean }>(
              "saveVariantPrices",
              "write",
              "mutation($input: SaveVariantPricesInput!) { saveVariantPrices(input: $input) }",
              {
                input: {
                  priceListId: listId === IKAS_DEFAULT_PRICE_LIST ? null : listId,
                  variantPriceInputs: part.map((r) => ({
                    productId: r.productId,
                    variantId: r.variantId,
                    price: {
                      sellPrice: r.listAmount ?? r.amount,
                      discountPrice: r.listAmount !== undefined ? r.amount : null,
                      currency: r.currency,
                    },
                  })),
                },
              },
              { idempotent: true },
            );
          },
          result,
        );
        if (stop) {
          const rest = [...batches.slice(b + 1).flat()];
          for (const [k, v] of byList)
            if (k !== listId && !result.failed.some((f) => f.key === v[0]?.sku)) rest.push(...v);
          for (const r of rest) result.failed.push({ key: r.sku, error: stop.with({ itemKeys: [r.sku] }) });
          break outer;
        }
      }
    }
    return result;
  }

  // ---- orders ----

  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const limit = Math.min(200, Math.max(1, q.pageSize ?? 100));
    const since = q.since !== undefined ? Number(q.since) : 0;
    if (!Number.isFinite(since)) {
      throw new ConnectorError(`ikas: invalid order cursor ${q.since}`, {
        reason: "validation",
        system: "ikas",
      });
    }
    // Re-read the last window: an order saved just before the previous scan ended may carry an
    // earlier updatedAt than the newest one seen. The caller's ledger dedupes.
    const tok = decodeToken<OrderPageToken>(q.pageToken, "ikas") ?? {
      gte: since > 0 ? Math.max(0, since - ORDER_CURSOR_OVERLAP_MS) : 0,
      page: 1,
      seen: [],
      max: since,
    };
    const d = await this.gql<{ listOrder: { data: IkasOrderDto[]; hasNext: boolean } }>(
      "listOrder",
      "read",
      `query($gte: Float, $limit: Int, $page: Int) {
         listOrder(updatedAt: { gte: $gte }, sort: "updatedAt", pagination: { limit: $limit, page: $page }) {
           hasNext data { ${ORDER_FIELDS} }
         }
       }
       ${ADDRESS_FRAGMENT}`,
      { gte: tok.gte, limit, page: tok.page },
    );
    const seen = new Set(tok.seen);
    const rows = d.listOrder.data.filter((o) => !(o.updatedAt === tok.gte && seen.has(o.id)));
    const max = rows.reduce((m, o) => Math.max(m, o.updatedAt), tok.max);
    let nextPageToken: string | undefined;
    if (d.listOrder.hasNext) {
      const last = d.listOrder.data[d.listOrder.data.length - 1];
      if (last && last.updatedAt > tok.gte) {
        // Keyset: continue from the last updatedAt; orders changed meanwhile move behind us, none is skipped.
        const atLast = d.listOrder.data.filter((o) => o.updatedAt === last.updatedAt).map((o) => o.id);
        nextPageToken = encodeToken({
          gte: last.updatedAt,
          page: 1,
          seen: atLast,
          max,
        } satisfies OrderPageToken);
      } else {
        nextPageToken = encodeToken({
          gte: tok.gte,
          page: tok.page + 1,
          seen: tok.seen,
          max,
        } satisfies OrderPageToken);
      }
    }
    return { items: rows.map(mapIkasOrder), nextPageToken, cursor: String(max) };
  }

  private async orderPackages(
    orderId: string,
  ): Promise<Array<{ id: string; orderPackageFulfillStatus: string }>> {
    const d = await this.gql<{
      listOrder: {
        data: Array<{
          id: string;
          orderPackages: Array<{ id: string; orderPackageFulfillStatus: string }> | null;
        }>;
      };
    }>(
      "listOrder",
      "read",
      "query($id: String!) { listOrder(id: { eq: $id }, pagination: { limit: 1, page: 1 }) { data { id orderPackages { id orderPackageFulfillStatus } } } }",
      { id: orderId },
    );
    const o = d.listOrder.data[0];
    if (!o) {
      throw new ConnectorError(`ikas: order ${orderId} not found`, {
        reason: "unknown_item",
        system: "ikas",
        operation: "updateOrderPackageStatus",
        itemKeys: [orderId],
      });
    }
    return o.orderPackages ?? [];
  }

  async updateOrderStatus(orderId: string, update: OrderStatusUpdate): Promise<void> {
    const packages = await this.orderPackages(orderId);
    const tracking =
      update.trackingNumber || update.cargoCompany || update.trackingUrl
        ? {
            trackingNumber: update.trackingNumber ?? null,
            cargoCompany: update.cargoCompany ?? null,
            trackingLink: update.trackingUrl ?? null,
          }
        : null;
    await this.gql(
      "updateOrderPackageStatus",
      "write",
      "mutation($input: UpdateOrderPackageStatusInput!) { updateOrderPackageStatus(input: $input) { id orderPackageStatus } }",
      {
        input: {
          orderId,
          packages: packages.map((p) => ({ packageId: p.id, status: update.status, trackingInfo: tracking })),
        },
      },
      // Setting the same status again is harmless.
      { idempotent: true },
    );
  }

  async attachInvoice(orderId: string, attachment: InvoiceAttachment): Promise<void> {
    const inv = attachment.invoice;
    await this.gql(
      "addOrderInvoice",
      "write",
      "mutation($input: AddOrderInvoiceInput!) { addOrderInvoice(input: $input) { id } }",
      {
        input: {
          orderId,
          invoiceNumber: inv.number,
          invoiceDate: Date.parse(inv.date),
          ettn: inv.uuid,
          base64: inv.pdfBase64 ?? null,
          fileName: `${inv.number}.pdf`,
        },
      },
      // The shop keeps one invoice per number/ETTN, so a repeat does not duplicate it.
      { idempotent: true },
    );
  }
}

export function createIkasConnector(credentials: Credentials, ctx: ConnectorContext): ShopConnector {
  return new IkasConnector(credentials, ctx);
}
