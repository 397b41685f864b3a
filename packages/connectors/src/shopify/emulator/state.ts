/**
 * In-memory store of the Shopify emulator, with the views its resolvers hand to graphql-js: plain objects
 * shaped like the Admin schema's types (`__typename` for interfaces, methods for fields with arguments).
 * The schema itself (types, nullability, enums, input coercion) is Shopify's, executed by graphql-js.
 */

import { generateCatalog, generateCustomer } from "../../testing/catalog";
import { Prng } from "../../testing/prng";

export interface ShopifyVariant {
  id: string;
  productId: string;
  sku: string | null;
  barcode: string | null;
  price: string;
  compareAtPrice: string | null;
  inventoryItemId: string;
  options: Array<{ name: string; value: string }>;
  createdAt: string;
  updatedAt: string;
}

export interface ShopifyProduct {
  id: string;
  title: string;
  vendor: string;
  status: "ACTIVE" | "DRAFT" | "ARCHIVED";
  descriptionHtml: string;
  options: Array<{ name: string; values: string[] }>;
  variantIds: string[];
  collectionIds: string[];
  createdAt: string;
  updatedAt: string;
}

export interface ShopifyLocation {
  id: string;
  name: string;
  isActive: boolean;
  fulfillsOnlineOrders: boolean;
}

export interface ShopifyAddressRow {
  firstName: string;
  lastName: string;
  company: string | null;
  address1: string;
  address2: string | null;
  city: string;
  province: string;
  zip: string;
  countryCodeV2: string;
  phone: string;
}

export interface ShopifyLineItem {
  id: string;
  sku: string;
  name: string;
  quantity: number;
  unitPrice: number;
  discount: number;
  vatRate: number;
  variantId: string | null;
  productId: string | null;
}

export interface ShopifyFulfillmentOrder {
  id: string;
  status: "OPEN" | "IN_PROGRESS" | "CLOSED";
}

export interface ShopifyOrderRow {
  id: string;
  number: number;
  name: string;
  createdAt: string;
  updatedAt: string;
  financial: "PENDING" | "PAID" | "AUTHORIZED";
  fulfillment: "UNFULFILLED" | "FULFILLED";
  email: string;
  phone: string;
  note: string | null;
  gateway: string;
  sourceName: string;
  customer: { id: string; firstName: string; lastName: string; email: string; phone: string };
  address: ShopifyAddressRow;
  lines: ShopifyLineItem[];
  shippingTitle: string;
  shippingPrice: number;
  fulfillmentOrders: ShopifyFulfillmentOrder[];
  /** When the sale's transaction succeeded (paid orders), as Shopify's `OrderTransaction.processedAt`. */
  paidAt: string | null;
  fulfillments: Array<{ id: string; createdAt: string; company?: string; number?: string; url?: string }>;
  metafields: Map<string, { id: string; namespace: string; key: string; type: string; value: string }>;
}

const money = (n: number) => (Math.round(n * 100) / 100).toFixed(2);
const iso = (ms: number) => new Date(ms).toISOString();

export class ShopifyState {
  readonly shop = {
    id: "gid://shopify/Shop/1",
    name: "Deneme Mağaza",
    currencyCode: "TRY",
    myshopifyDomain: "",
  };
  readonly locations: ShopifyLocation[] = [
    { id: "gid://shopify/Location/1001", name: "Ana Depo", isActive: true, fulfillsOnlineOrders: true },
    {
      id: "gid://shopify/Location/1002",
      name: "Kadıköy Mağaza",
      isActive: true,
      fulfillsOnlineOrders: false,
    },
  ];
  readonly products = new Map<string, ShopifyProduct>();
  readonly variants = new Map<string, ShopifyVariant>();
  /** `${inventoryItemId}|${locationId}` → available. */
  readonly inventory = new Map<string, number>();
  readonly collections = new Map<string, { id: string; title: string }>();
  readonly orders = new Map<string, ShopifyOrderRow>();
  private seq = 1;
  private orderNo = 1000;
  private readonly rng: Prng;
  private readonly skus: Array<{
    sku: string;
    name: string;
    price: number;
    vat: number;
    variantId: string;
    productId: string;
  }> = [];

  constructor(opts: {
    seed: number | string;
    productCount: number;
    orderCount?: number;
    shopDomain: string;
    now: () => number;
  }) {
    this.now = opts.now;
    this.shop.myshopifyDomain = opts.shopDomain;
    this.rng = new Prng(`${opts.seed}:shopify`);
    const items = generateCatalog({ seed: opts.seed, count: opts.productCount, now: opts.now() });
    const byModel = new Map<string, typeof items>();
    for (const it of items) byModel.set(it.modelCode, [...(byModel.get(it.modelCode) ?? []), it]);
    const collections = new Map<string, string>();
    for (const group of byModel.values()) {
      const first = group[0];
      if (!first) continue;
      let colId = collections.get(first.categoryRoot);
      if (!colId) {
        colId = this.newId("Collection");
        collections.set(first.categoryRoot, colId);
        this.collections.set(colId, { id: colId, title: first.categoryRoot });
      }
      const optionName = first.optionName;
      const product = this.createProduct({
        title: first.modelName,
        vendor: first.brand,
        status: "ACTIVE",
        descriptionHtml: "",
        options: optionName
          ? [{ name: optionName, values: group.map((g) => g.optionValue ?? "-") }]
          : [{ name: "Title", values: ["Default Title"] }],
        collectionIds: [colId],
        updatedAt: first.updatedAt,
        variants: group.map((g) => ({
          sku: g.sku,
          barcode: g.barcode,
          price: money(g.retailPrice),
          compareAtPrice: null,
          options: optionName
            ? [{ name: optionName, value: g.optionValue ?? "-" }]
            : [{ name: "Title", value: "Default Title" }],
        })),
      });
      product.variantIds.forEach((vid, i) => {
        const v = this.variants.get(vid) as ShopifyVariant;
        const g = group[i];
        if (!g) return;
        this.inventory.set(`${v.inventoryItemId}|${this.locations[0]?.id}`, g.stock1);
        this.inventory.set(`${v.inventoryItemId}|${this.locations[1]?.id}`, g.stock2);
        this.skus.push({
          sku: g.sku,
          name: g.name,
          price: g.retailPrice,
          vat: g.vatRate,
          variantId: vid,
          productId: product.id,
        });
      });
    }
    this.generateOrders(opts.orderCount ?? 0);
  }

  readonly now: () => number;

  newId(type: string): string {
    return `gid://shopify/${type}/${this.seq++}`;
  }

  createProduct(input: {
    title: string;
    vendor: string;
    status: ShopifyProduct["status"];
    descriptionHtml: string;
    options: ShopifyProduct["options"];
    collectionIds: string[];
    updatedAt?: number;
    variants: Array<
      Omit<ShopifyVariant, "id" | "productId" | "inventoryItemId" | "createdAt" | "updatedAt"> & {
        id?: string;
      }
    >;
  }): ShopifyProduct {
    const at = iso(input.updatedAt ?? this.now());
    const product: ShopifyProduct = {
      id: this.newId("Product"),
      title: input.title,
      vendor: input.vendor,
      status: input.status,
      descriptionHtml: input.descriptionHtml,
      options: input.options,
      variantIds: [],
      collectionIds: input.collectionIds,
      createdAt: at,
      updatedAt: at,
    };
    this.products.set(product.id, product);
    this.replaceVariants(product, input.variants);
    return product;
  }

  /** productSet semantics: the listed variants are the product's variants; ids keep existing ones. */
  replaceVariants(
    product: ShopifyProduct,
    list: Array<
      Omit<ShopifyVariant, "id" | "productId" | "inventoryItemId" | "createdAt" | "updatedAt"> & {
        id?: string;
      }
    >,
  ): void {
    const at = iso(this.now());
    const keep = new Set<string>();
    const previous = product.variantIds;
    product.variantIds = list.map((v) => {
      const existing = v.id ? this.variants.get(v.id) : undefined;
      if (existing) {
        Object.assign(existing, { ...v, id: existing.id, updatedAt: at });
        keep.add(existing.id);
        return existing.id;
      }
      const id = this.newId("ProductVariant");
      this.variants.set(id, {
        ...v,
        id,
        productId: product.id,
        inventoryItemId: this.newId("InventoryItem"),
        createdAt: at,
        updatedAt: at,
      });
      keep.add(id);
      return id;
    });
    for (const id of previous) if (!keep.has(id)) this.variants.delete(id);
    product.updatedAt = at;
  }

  available(inventoryItemId: string, locationId: string): number {
    return this.inventory.get(`${inventoryItemId}|${locationId}`) ?? 0;
  }

  variantBySku(sku: string): ShopifyVariant | undefined {
    for (const v of this.variants.values()) if (v.sku === sku) return v;
    return undefined;
  }

  /** New orders from the seeded catalogue (Turkish customers, TRY, VAT-included prices). */
  generateOrders(n: number): ShopifyOrderRow[] {
    const out: ShopifyOrderRow[] = [];
    if (this.skus.length === 0) return out;
    for (let i = 0; i < n; i++) {
      const no = ++this.orderNo;
      const c = generateCustomer(this.rng, no);
      const lines: ShopifyLineItem[] = [];
      const count = this.rng.int(1, 3);
      for (let l = 0; l < count; l++) {
        const s = this.rng.pick(this.skus);
        lines.push({
          id: this.newId("LineItem"),
          sku: s.sku,
          name: s.name,
          quantity: this.rng.int(1, 3),
          unitPrice: s.price,
          discount: 0,
          vatRate: s.vat,
          variantId: s.variantId,
          productId: s.productId,
        });
      }
      const at = iso(this.now());
      const financial = this.rng.chance(0.7) ? "PAID" : "PENDING";
      const order: ShopifyOrderRow = {
        id: this.newId("Order"),
        number: no,
        name: `#${no}`,
        createdAt: at,
        updatedAt: at,
        financial,
        paidAt: financial === "PAID" ? at : null,
        fulfillment: "UNFULFILLED",
        email: c.email,
        phone: c.phone,
        note: null,
        // Card gateways and Shopify's manual payment methods (named by the merchant's choice of method).
        gateway: this.rng.pick(["iyzico", "PayTR", "Cash on Delivery (COD)", "Bank Deposit", "manual"]),
        sourceName: this.rng.pick(["web", "shopify_draft_order"]),
        customer: {
          id: this.newId("Customer"),
          firstName: c.firstName,
          lastName: c.lastName,
          email: c.email,
          phone: c.phone,
        },
        address: {
          firstName: c.firstName,
          lastName: c.lastName,
          company: c.companyName ?? null,
          address1: c.address.line1,
          address2: null,
          city: c.address.district,
          province: c.address.city,
          zip: c.address.postalCode,
          countryCodeV2: "TR",
          phone: c.phone,
        },
        lines,
        shippingTitle: "Standart Kargo",
        shippingPrice: this.rng.chance(0.5) ? 0 : 49.9,
        fulfillmentOrders: [{ id: this.newId("FulfillmentOrder"), status: "OPEN" }],
        fulfillments: [],
        metafields: new Map(),
      };
      this.orders.set(order.id, order);
      out.push(order);
    }
    return out;
  }

  touchOrder(o: ShopifyOrderRow): void {
    o.updatedAt = iso(this.now());
  }

  // ---- views (what graphql-js resolves fields on) ----

  variantView(v: ShopifyVariant): Record<string, unknown> {
    const product = this.products.get(v.productId);
    return {
      __typename: "ProductVariant",
      ...v,
      title: v.options.map((o) => o.value).join(" / "),
      displayName: `${product?.title ?? ""} - ${v.options.map((o) => o.value).join(" / ")}`,
      selectedOptions: v.options,
      inventoryItem: { __typename: "InventoryItem", id: v.inventoryItemId, sku: v.sku, tracked: true },
      inventoryQuantity: this.locations.reduce((n, l) => n + this.available(v.inventoryItemId, l.id), 0),
      product: () => (product ? this.productView(product) : null),
    };
  }

  productView(p: ShopifyProduct): Record<string, unknown> {
    return {
      __typename: "Product",
      ...p,
      handle: p.id.split("/").pop(),
      options: p.options.map((o, i) => ({
        __typename: "ProductOption",
        id: `${p.id}/option/${i}`,
        name: o.name,
        position: i + 1,
        values: o.values,
      })),
      variants: (args: ConnArgs) =>
        connection(
          [...p.variantIds].flatMap((id) => {
            const v = this.variants.get(id);
            return v ? [this.variantView(v)] : [];
          }),
          args,
        ),
      collections: (args: ConnArgs) =>
        connection(
          p.collectionIds.flatMap((id) => {
            const c = this.collections.get(id);
            return c ? [{ __typename: "Collection", ...c }] : [];
          }),
          args,
        ),
    };
  }

  /**
   * The order's sale transaction: card gateways carry `CardPaymentDetails`; manual methods (COD, bank
   * deposit) none, and stay PENDING until the merchant marks the order paid.
   */
  transactionsView(o: ShopifyOrderRow): Array<Record<string, unknown>> {
    const card = o.gateway === "iyzico" || o.gateway === "PayTR";
    return [
      {
        __typename: "OrderTransaction",
        id: `${o.id}/transaction/1`,
        kind: "SALE",
        status: o.paidAt ? "SUCCESS" : "PENDING",
        gateway: o.gateway,
        formattedGateway: o.gateway,
        processedAt: o.paidAt,
        createdAt: o.createdAt,
        paymentDetails: card ? { __typename: "CardPaymentDetails", company: "Visa", wallet: null } : null,
      },
    ];
  }

  orderView(o: ShopifyOrderRow): Record<string, unknown> {
    const set = (n: number) => ({
      shopMoney: { amount: money(n), currencyCode: "TRY" },
      presentmentMoney: { amount: money(n), currencyCode: "TRY" },
    });
    const subtotal = o.lines.reduce((s, l) => s + l.unitPrice * l.quantity - l.discount, 0);
    const tax = o.lines.reduce(
      (s, l) => s + ((l.unitPrice * l.quantity - l.discount) * l.vatRate) / (100 + l.vatRate),
      0,
    );
    const paid = o.financial === "PAID";
    return {
      __typename: "Order",
      id: o.id,
      name: o.name,
      number: o.number,
      createdAt: o.createdAt,
      updatedAt: o.updatedAt,
      processedAt: o.createdAt,
      displayFinancialStatus: o.financial,
      displayFulfillmentStatus: o.fulfillment,
      canMarkAsPaid: !paid,
      fullyPaid: paid,
      unpaid: !paid,
      currencyCode: "TRY",
      email: o.email,
      phone: o.phone,
      note: o.note,
      taxesIncluded: true,
      paymentGatewayNames: [o.gateway],
      sourceName: o.sourceName,
      customer: { __typename: "Customer", ...o.customer },
      billingAddress: { __typename: "MailingAddress", id: `${o.id}/billing`, ...o.address },
      shippingAddress: { __typename: "MailingAddress", id: `${o.id}/shipping`, ...o.address },
      shippingLine: {
        title: o.shippingTitle,
        originalPriceSet: set(o.shippingPrice),
        custom: false,
        isRemoved: false,
      },
      subtotalPriceSet: set(subtotal),
      totalDiscountsSet: set(o.lines.reduce((s, l) => s + l.discount, 0)),
      totalShippingPriceSet: set(o.shippingPrice),
      totalTaxSet: set(tax),
      totalPriceSet: set(subtotal + o.shippingPrice),
      lineItems: (args: ConnArgs) =>
        connection(
          o.lines.map((l) => ({
            __typename: "LineItem",
            id: l.id,
            sku: l.sku,
            name: l.name,
            title: l.name,
            quantity: l.quantity,
            originalUnitPriceSet: set(l.unitPrice),
            discountedTotalSet: () => set(l.unitPrice * l.quantity - l.discount),
            totalDiscountSet: set(l.discount),
            taxLines: () => [
              { title: "KDV", ratePercentage: l.vatRate, rate: l.vatRate / 100, priceSet: set(0) },
            ],
            variant:
              l.variantId && this.variants.get(l.variantId)
                ? this.variantView(this.variants.get(l.variantId) as ShopifyVariant)
                : null,
            product:
              l.productId && this.products.get(l.productId)
                ? this.productView(this.products.get(l.productId) as ShopifyProduct)
                : null,
          })),
          args,
        ),
      transactions: (args: { first?: number | null }) => this.transactionsView(o).slice(0, args.first ?? 100),
      fulfillments: (args: { first?: number | null }) =>
        o.fulfillments.slice(0, args.first ?? 100).map((f) => ({
          __typename: "Fulfillment",
          id: f.id,
          status: "SUCCESS",
          createdAt: f.createdAt,
          trackingInfo: (a: { first?: number | null }) =>
            (f.company || f.number
              ? [{ company: f.company ?? null, number: f.number ?? null, url: f.url ?? null }]
              : []
            ).slice(0, a.first ?? 100),
        })),
      fulfillmentOrders: (args: ConnArgs) =>
        connection(
          o.fulfillmentOrders.map((f) => ({
            __typename: "FulfillmentOrder",
            ...f,
            orderId: o.id,
            orderName: o.name,
          })),
          args,
        ),
      metafields: (args: ConnArgs) =>
        connection(
          [...o.metafields.values()].map((m) => ({ __typename: "Metafield", ...m })),
          args,
        ),
    };
  }
}

export interface ConnArgs {
  first?: number | null;
  after?: string | null;
}

/** A Relay connection over a list (cursor = position); no `first` (bulk queries) means every row. */
export function connection<T>(rows: T[], args: ConnArgs = {}): Record<string, unknown> {
  const start = args.after ? Number(Buffer.from(args.after, "base64url").toString("utf8")) + 1 : 0;
  const end = args.first == null ? rows.length : Math.min(rows.length, start + args.first);
  const page = rows.slice(start, end);
  const cursor = (i: number) => Buffer.from(String(start + i), "utf8").toString("base64url");
  return {
    nodes: page,
    edges: page.map((node, i) => ({ node, cursor: cursor(i) })),
    pageInfo: {
      hasNextPage: end < rows.length,
      hasPreviousPage: start > 0,
      startCursor: page.length ? cursor(0) : null,
      endCursor: page.length ? cursor(page.length - 1) : null,
    },
  };
}
