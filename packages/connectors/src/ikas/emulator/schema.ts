/**
 * The IKAS Admin GraphQL API (v1 names, ikas.dev) as far as the connector uses it, executed by graphql-js.
 * Field and operation names follow shared/partner-apis/shops.md §1; where the notes are silent the choice
 * is documented in packages/connectors/README.md.
 */

import { buildSchema, GraphQLError, type GraphQLSchema } from "graphql";
import type {
  IkasAddress,
  IkasCategory,
  IkasOrder,
  IkasPrice,
  IkasProduct,
  IkasState,
  IkasVariant,
} from "./state";

export const IKAS_SDL = /* GraphQL */ `
  input PaginationInput { limit: Int, page: Int }
  input StringFilterInput { eq: String, ne: String, in: [String!], nin: [String!] }
  input DateFilterInput { gt: Float, gte: Float, lt: Float, lte: Float }

  type Merchant { id: ID!, storeName: String!, email: String, merchantName: String }

  type ProductPrice { priceListId: String, sellPrice: Float!, discountPrice: Float, buyPrice: Float, currency: String }
  type ProductStockLocation { stockLocationId: String!, stockCount: Float! }
  type VariantValue { variantTypeName: String!, variantValueName: String! }
  type Variant {
    id: ID!
    sku: String
    barcodeList: [String!]!
    isActive: Boolean!
    prices: [ProductPrice!]!
    stocks: [ProductStockLocation!]!
    variantValues: [VariantValue!]!
  }
  type Product {
    id: ID!
    name: String!
    description: String
    type: String!
    brandId: String
    categoryIds: [String!]!
    salesChannelIds: [String!]!
    variants: [Variant!]!
    createdAt: Float!
    updatedAt: Float!
    deleted: Boolean!
  }
  type ProductPaginationResponse { count: Int!, data: [Product!]!, hasNext: Boolean!, limit: Int!, page: Int! }

  type Category { id: ID!, name: String!, parentId: String, createdAt: Float, updatedAt: Float }
  type ProductBrand { id: ID!, name: String! }
  type StockLocation { id: ID!, name: String! }
  type PriceList { id: ID!, name: String!, currencyCode: String }
  type SalesChannel { id: ID!, name: String!, type: String }
  type PaymentGateway { id: ID!, name: String!, paymentMethodType: String }

  enum OrderStatusEnum { CREATED DRAFT CANCELLED PARTIALLY_CANCELLED REFUND_REQUESTED REFUND_REJECTED PARTIALLY_REFUNDED REFUNDED }
  enum OrderPackageStatusEnum {
    UNFULFILLED READY_FOR_SHIPMENT PARTIALLY_READY_FOR_SHIPMENT FULFILLED PARTIALLY_FULFILLED DELIVERED
    PARTIALLY_DELIVERED UNABLE_TO_DELIVER READY_FOR_PICK_UP CANCELLED CANCEL_REQUESTED CANCEL_REJECTED
    PARTIALLY_CANCELLED REFUNDED PARTIALLY_REFUNDED REFUND_REQUESTED REFUND_REQUEST_ACCEPTED REFUND_REJECTED
  }
  enum OrderPackageFulfillStatusEnum {
    FULFILLED READY_FOR_SHIPMENT DELIVERED UNABLE_TO_DELIVER READY_FOR_PICK_UP CANCELLED CANCEL_REQUESTED
    CANCEL_REJECTED REFUND_REQUESTED REFUND_REQUEST_ACCEPTED REFUND_REJECTED ERROR
  }

  type NamedRef { name: String }
  type OrderAddress {
    firstName: String, lastName: String, company: String, addressLine1: String, addressLine2: String,
    city: NamedRef, district: NamedRef, country: NamedRef, postalCode: String, phone: String,
    identityNumber: String, taxNumber: String, taxOffice: String, isDefault: Boolean
  }
  type OrderCustomer { id: ID, firstName: String, lastName: String, email: String, phone: String }
  type OrderLineVariant { id: ID!, sku: String, name: String, productId: String, barcodeList: [String!] }
  type OrderLineItem { id: ID!, quantity: Float!, price: Float!, finalPrice: Float, discountPrice: Float, taxValue: Float, variant: OrderLineVariant! }
  type TrackingInfo { trackingNumber: String, cargoCompany: String, trackingLink: String }
  type OrderPackage {
    id: ID!, orderPackageNumber: String, orderPackageFulfillStatus: OrderPackageStatusEnum!,
    orderLineItemIds: [String!]!, trackingInfo: TrackingInfo
  }
  type OrderShippingLine { title: String, price: Float, finalPrice: Float }
  type OrderPaymentMethod { type: String, paymentGatewayName: String, price: Float }
  type OrderInvoice { id: ID!, invoiceNumber: String, invoiceDate: Float, ettn: String, fileName: String, size: Int }
  type Order {
    id: ID!
    orderNumber: String
    status: OrderStatusEnum!
    orderPaymentStatus: String
    orderPackageStatus: OrderPackageStatusEnum
    currencyCode: String!
    totalPrice: Float!
    totalFinalPrice: Float!
    orderedAt: Float
    createdAt: Float!
    updatedAt: Float!
    salesChannelId: String
    note: String
    customer: OrderCustomer
    billingAddress: OrderAddress
    shippingAddress: OrderAddress
    shippingLines: [OrderShippingLine!]
    paymentMethods: [OrderPaymentMethod!]
    orderLineItems: [OrderLineItem!]!
    orderPackages: [OrderPackage!]
    invoices: [OrderInvoice!]
  }
  type OrderPaginationResponse { count: Int!, data: [Order!]!, hasNext: Boolean!, limit: Int!, page: Int! }

  type Query {
    getMerchant: Merchant!
    listProduct(
      pagination: PaginationInput, id: StringFilterInput, sku: StringFilterInput, barcodeList: StringFilterInput,
      categoryIds: StringFilterInput, updatedAt: DateFilterInput, includeDeleted: Boolean, sort: String
    ): ProductPaginationResponse!
    listCategory(id: StringFilterInput, name: StringFilterInput): [Category!]!
    listProductBrand(id: StringFilterInput, name: StringFilterInput): [ProductBrand!]!
    listStockLocation: [StockLocation!]!
    listPriceList: [PriceList!]!
    listSalesChannel: [SalesChannel!]!
    listPaymentGateway: [PaymentGateway!]!
    listOrder(
      pagination: PaginationInput, id: StringFilterInput, orderNumber: StringFilterInput,
      updatedAt: DateFilterInput, orderedAt: DateFilterInput, sort: String
    ): OrderPaginationResponse!
  }

  input ProductPriceInput { sellPrice: Float!, discountPrice: Float, buyPrice: Float, currency: String, priceListId: String }
  input VariantValueInput { variantTypeName: String!, variantValueName: String! }
  input VariantInput {
    id: String, sku: String, barcodeList: [String!], isActive: Boolean!, prices: [ProductPriceInput!]!,
    variantValues: [VariantValueInput!]
  }
  input ProductInput {
    id: String, name: String!, description: String, type: String!, brandId: String, categoryIds: [String!],
    salesChannelIds: [String!], variants: [VariantInput!]!
  }
  input CategoryInput { id: String, name: String!, parentId: String }
  input ProductBrandInput { id: String, name: String! }
  input ProductStockLocationInput { productId: String!, variantId: String!, stockLocationId: String!, stockCount: Float! }
  input SaveStockLocationsInput { productStockLocationInputs: [ProductStockLocationInput!]! }
  input VariantPriceInput { productId: String!, variantId: String!, price: ProductPriceInput! }
  input SaveVariantPricesInput { priceListId: String, variantPriceInputs: [VariantPriceInput!]! }
  input TrackingInfoInput { trackingNumber: String, cargoCompany: String, trackingLink: String }
  input OrderPackageStatusInput { packageId: String!, status: OrderPackageFulfillStatusEnum!, trackingInfo: TrackingInfoInput, errorMessage: String }
  input UpdateOrderPackageStatusInput { orderId: String!, packages: [OrderPackageStatusInput!]!, sourceId: String }
  input AddOrderInvoiceInput { orderId: String!, invoiceNumber: String!, invoiceDate: Float, ettn: String, base64: String, fileName: String }

  type Mutation {
    saveProduct(input: ProductInput!): Product!
    saveCategory(input: CategoryInput!): Category!
    saveProductBrand(input: ProductBrandInput!): ProductBrand!
    saveProductStockLocations(input: SaveStockLocationsInput!): Boolean!
    saveVariantPrices(input: SaveVariantPricesInput!): Boolean!
    updateOrderPackageStatus(input: UpdateOrderPackageStatusInput!): Order!
    addOrderInvoice(input: AddOrderInvoiceInput!): Order!
  }
`;

export interface IkasLimits {
  /** Max rows per saveVariantPrices call (documented: 3000). */
  maxPriceBatch: number;
  /** Max rows per saveProductStockLocations call (not documented; emulator choice). */
  maxStockBatch: number;
  /** Max pagination limit (documented: 200). */
  maxPageLimit: number;
}

export interface IkasCallStats {
  stockCalls: number;
  stockItems: number;
  priceCalls: number;
  priceItems: number;
  productSaves: number;
}

interface StringFilter {
  eq?: string | null;
  ne?: string | null;
  in?: string[] | null;
  nin?: string[] | null;
}
interface DateFilter {
  gt?: number | null;
  gte?: number | null;
  lt?: number | null;
  lte?: number | null;
}
interface Pagination {
  limit?: number | null;
  page?: number | null;
}

function matchString(v: string | null | undefined, f: StringFilter | null | undefined): boolean {
  if (!f) return true;
  if (f.eq != null && v !== f.eq) return false;
  if (f.ne != null && v === f.ne) return false;
  if (f.in && !(v != null && f.in.includes(v))) return false;
  if (f.nin && v != null && f.nin.includes(v)) return false;
  return true;
}

function matchDate(v: number, f: DateFilter | null | undefined): boolean {
  if (!f) return true;
  if (f.gt != null && !(v > f.gt)) return false;
  if (f.gte != null && !(v >= f.gte)) return false;
  if (f.lt != null && !(v < f.lt)) return false;
  if (f.lte != null && !(v <= f.lte)) return false;
  return true;
}

export function validationError(message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "VALIDATION_ERROR", ...extra } });
}

function page<T>(items: T[], p: Pagination | null | undefined, maxLimit: number) {
  const limit = p?.limit ?? 50;
  const pageNo = p?.page ?? 1;
  if (limit < 1 || limit > maxLimit)
    throw validationError(`pagination.limit must be between 1 and ${maxLimit}`);
  if (pageNo < 1) throw validationError("pagination.page must be at least 1");
  const start = (pageNo - 1) * limit;
  return {
    count: items.length,
    data: items.slice(start, start + limit),
    hasNext: start + limit < items.length,
    limit,
    page: pageNo,
  };
}

function sortBy<T extends { updatedAt: number; createdAt: number }>(
  items: T[],
  sort: string | null | undefined,
): T[] {
  if (!sort) return items;
  const desc = sort.startsWith("-") || sort.endsWith(":desc");
  const field = sort.replace(/^-/, "").replace(/:(asc|desc)$/, "");
  if (field !== "updatedAt" && field !== "createdAt" && field !== "orderedAt" && field !== "name") {
    throw validationError(`Unsupported sort field: ${field}`);
  }
  const key = field === "orderedAt" ? "createdAt" : field;
  return [...items].sort((a, b) => {
    const av = (a as Record<string, unknown>)[key];
    const bv = (b as Record<string, unknown>)[key];
    const c =
      typeof av === "number" && typeof bv === "number" ? av - bv : String(av).localeCompare(String(bv));
    return desc ? -c : c;
  });
}

export interface IkasResolverContext {
  state: IkasState;
  limits: IkasLimits;
  stats: IkasCallStats;
}

type Args = Record<string, unknown>;

interface VariantInputShape {
  id?: string | null;
  sku?: string | null;
  barcodeList?: string[] | null;
  isActive: boolean;
  prices: Array<{
    sellPrice: number;
    discountPrice?: number | null;
    buyPrice?: number | null;
    currency?: string | null;
    priceListId?: string | null;
  }>;
  variantValues?: Array<{ variantTypeName: string; variantValueName: string }> | null;
}

interface ProductInputShape {
  id?: string | null;
  name: string;
  description?: string | null;
  type: string;
  brandId?: string | null;
  categoryIds?: string[] | null;
  salesChannelIds?: string[] | null;
  variants: VariantInputShape[];
}

function toPrice(p: VariantInputShape["prices"][number]): IkasPrice {
  return {
    priceListId: p.priceListId ?? null,
    sellPrice: p.sellPrice,
    discountPrice: p.discountPrice ?? null,
    buyPrice: p.buyPrice ?? null,
    currency: p.currency ?? "TRY",
  };
}

function derivePackageStatus(order: IkasOrder): void {
  const statuses = (order.orderPackages ?? []).map((p) => p.orderPackageFulfillStatus);
  const all = (s: string) => statuses.length > 0 && statuses.every((x) => x === s);
  for (const s of [
    "DELIVERED",
    "FULFILLED",
    "READY_FOR_SHIPMENT",
    "CANCELLED",
    "UNABLE_TO_DELIVER",
    "READY_FOR_PICK_UP",
  ]) {
    if (all(s)) order.orderPackageStatus = s;
  }
  if (all("CANCELLED")) order.status = "CANCELLED";
  if (all("REFUND_REQUEST_ACCEPTED")) order.status = "REFUNDED";
}

export function createRoot(ctx: IkasResolverContext): Record<string, (args: Args) => unknown> {
  const { state, limits, stats } = ctx;
  const validLocations = () => new Set(state.stockLocations.map((s) => s.id));
  const validLists = () => new Set(state.priceLists.map((s) => s.id));

  return {
    getMerchant: () => ({
      id: state.merchantId,
      storeName: state.storeName,
      email: `info@${state.storeName}.com.tr`,
      merchantName: `${state.storeName} E-Ticaret A.Ş.`,
    }),

    listProduct: (a) => {
      const args = a as {
        pagination?: Pagination;
        id?: StringFilter;
        sku?: StringFilter;
        barcodeList?: StringFilter;
        categoryIds?: StringFilter;
        updatedAt?: DateFilter;
        includeDeleted?: boolean;
        sort?: string;
      };
      let items: IkasProduct[];
      if (args.sku?.in || args.sku?.eq) {
        const wanted = args.sku.in ?? [args.sku.eq ?? ""];
        const ids = new Set<string>();
        for (const s of wanted) {
          const hit = state.skuIndex.get(s);
          if (hit) ids.add(hit[0]);
        }
        items = [...ids].map((id) => state.products.get(id)).filter((p): p is IkasProduct => p !== undefined);
      } else if (args.id?.eq || args.id?.in) {
        const ids = args.id.in ?? [args.id.eq ?? ""];
        items = ids.map((id) => state.products.get(id)).filter((p): p is IkasProduct => p !== undefined);
      } else {
        items = [...state.products.values()];
      }
      items = items.filter(
        (p) =>
          (args.includeDeleted || !p.deleted) &&
          matchDate(p.updatedAt, args.updatedAt) &&
          (!args.barcodeList ||
            p.variants.some((v) => v.barcodeList.some((b) => matchString(b, args.barcodeList)))) &&
          (!args.categoryIds || p.categoryIds.some((c) => matchString(c, args.categoryIds))),
      );
      return page(sortBy(items, args.sort), args.pagination, limits.maxPageLimit);
    },

    listCategory: (a) => {
      const args = a as { id?: StringFilter; name?: StringFilter };
      return [...state.categories.values()].filter(
        (c) => matchString(c.id, args.id) && matchString(c.name, args.name),
      );
    },

    listProductBrand: (a) => {
      const args = a as { id?: StringFilter; name?: StringFilter };
      return [...state.brands.values()].filter(
        (c) => matchString(c.id, args.id) && matchString(c.name, args.name),
      );
    },

    listStockLocation: () => state.stockLocations,
    listPriceList: () => state.priceLists,
    listSalesChannel: () => state.salesChannels,
    listPaymentGateway: () => state.paymentGateways,

    listOrder: (a) => {
      const args = a as {
        pagination?: Pagination;
        id?: StringFilter;
        orderNumber?: StringFilter;
        updatedAt?: DateFilter;
        orderedAt?: DateFilter;
        sort?: string;
      };
      const items = state.orders.filter(
        (o) =>
          matchString(o.id, args.id) &&
          matchString(o.orderNumber, args.orderNumber) &&
          matchDate(o.updatedAt, args.updatedAt) &&
          matchDate(o.orderedAt, args.orderedAt),
      );
      return page(sortBy(items, args.sort), args.pagination, limits.maxPageLimit);
    },

    saveProduct: (a) => {
      stats.productSaves++;
      const input = (a as { input: ProductInputShape }).input;
      if (!input.name.trim()) throw validationError("name is required");
      if (input.variants.length === 0) throw validationError("variants must not be empty");
      const existing = input.id ? state.products.get(input.id) : undefined;
      if (input.id && !existing)
        throw new GraphQLError(`Product not found: ${input.id}`, { extensions: { code: "NOT_FOUND" } });
      for (const id of input.categoryIds ?? []) {
        if (!state.categories.has(id)) throw validationError(`Category not found: ${id}`);
      }
      if (input.brandId && !state.brands.has(input.brandId))
        throw validationError(`Brand not found: ${input.brandId}`);
      const seen = new Set<string>();
      for (const v of input.variants) {
        if (v.sku) {
          if (seen.has(v.sku)) throw validationError(`Duplicate sku in input: ${v.sku}`);
          seen.add(v.sku);
          const owner = state.skuIndex.get(v.sku);
          if (owner && owner[0] !== existing?.id)
            throw validationError(`SKU already exists: ${v.sku}`, { sku: v.sku });
        }
        if (v.id && !existing?.variants.some((x) => x.id === v.id))
          throw validationError(`Variant not found: ${v.id}`);
        for (const p of v.prices) {
          if (p.priceListId && !validLists().has(p.priceListId))
            throw validationError(`Price list not found: ${p.priceListId}`);
          if (!(p.sellPrice >= 0)) throw validationError("sellPrice must not be negative");
        }
      }
      const ts = state.tick();
      if (existing) state.unindexProduct(existing);
      // saveProduct replaces the whole product: variants and prices not in the input are gone (IKAS gotcha).
      const variants: IkasVariant[] = input.variants.map((v) => {
        const old = v.id ? existing?.variants.find((x) => x.id === v.id) : undefined;
        return {
          id: old?.id ?? state.uuid(),
          sku: v.sku ?? null,
          barcodeList: v.barcodeList ?? [],
          isActive: v.isActive,
          prices: v.prices.map(toPrice),
          stocks: old?.stocks ?? [],
          variantValues: v.variantValues ?? [],
        };
      });
      const product: IkasProduct = {
        id: existing?.id ?? state.uuid(),
        name: input.name,
        description: input.description ?? null,
        type: input.type,
        brandId: input.brandId ?? null,
        categoryIds: input.categoryIds ?? [],
        salesChannelIds: input.salesChannelIds ?? state.salesChannels.map((s) => s.id),
        vatRate: existing?.vatRate ?? null,
        variants,
        createdAt: existing?.createdAt ?? ts,
        updatedAt: ts,
        deleted: false,
      };
      state.products.set(product.id, product);
      state.indexProduct(product);
      return product;
    },

    saveCategory: (a) => {
      const input = (a as { input: { id?: string | null; name: string; parentId?: string | null } }).input;
      if (!input.name.trim()) throw validationError("name is required");
      if (input.parentId && !state.categories.has(input.parentId))
        throw validationError(`Parent category not found: ${input.parentId}`);
      if (input.id) {
        const c = state.categories.get(input.id);
        if (!c)
          throw new GraphQLError(`Category not found: ${input.id}`, { extensions: { code: "NOT_FOUND" } });
        c.name = input.name;
        c.parentId = input.parentId ?? null;
        c.updatedAt = state.tick();
        return c;
      }
      return state.addCategory(input.name, input.parentId ?? null) satisfies IkasCategory;
    },

    saveProductBrand: (a) => {
      const input = (a as { input: { id?: string | null; name: string } }).input;
      if (!input.name.trim()) throw validationError("name is required");
      const id = state.brandFor(input.name);
      return state.brands.get(id);
    },

    saveProductStockLocations: (a) => {
      const rows = (
        a as {
          input: {
            productStockLocationInputs: Array<{
              productId: string;
              variantId: string;
              stockLocationId: string;
              stockCount: number;
            }>;
          };
        }
      ).input.productStockLocationInputs;
      stats.stockCalls++;
      stats.stockItems += rows.length;
      if (rows.length > limits.maxStockBatch) {
        throw validationError(`productStockLocationInputs can have at most ${limits.maxStockBatch} items`);
      }
      const locations = validLocations();
      const inputErrors: Array<{ index: number; code: string }> = [];
      rows.forEach((r, i) => {
        if (!state.findVariant(r.productId, r.variantId) || !locations.has(r.stockLocationId)) {
          inputErrors.push({ index: i, code: "NOT_FOUND" });
        } else if (!Number.isFinite(r.stockCount)) inputErrors.push({ index: i, code: "INVALID_VALUE" });
      });
      if (inputErrors.length > 0) {
        const bad = inputErrors.map((x) => x.index);
        throw validationError(
          `Invalid stock input at index ${bad.join(", ")}: unknown product, variant or stock location`,
          {
            invalidInputIndexes: bad,
            inputErrors,
          },
        );
      }
      const touched = new Set<IkasProduct>();
      for (const r of rows) {
        const v = state.findVariant(r.productId, r.variantId);
        if (!v) continue;
        const s = v.stocks.find((x) => x.stockLocationId === r.stockLocationId);
        if (s) s.stockCount = r.stockCount;
        else v.stocks.push({ stockLocationId: r.stockLocationId, stockCount: r.stockCount });
        const p = state.products.get(r.productId);
        if (p) touched.add(p);
      }
      const ts = state.tick();
      for (const p of touched) p.updatedAt = ts;
      return true;
    },

    saveVariantPrices: (a) => {
      const input = (
        a as {
          input: {
            priceListId?: string | null;
            variantPriceInputs: Array<{
              productId: string;
              variantId: string;
              price: VariantInputShape["prices"][number];
            }>;
          };
        }
      ).input;
      const rows = input.variantPriceInputs;
      stats.priceCalls++;
      stats.priceItems += rows.length;
      if (rows.length > limits.maxPriceBatch) {
        throw validationError(`variantPriceInputs can have at most ${limits.maxPriceBatch} items`);
      }
      const listId = input.priceListId ?? null;
      if (listId && !validLists().has(listId)) throw validationError(`Price list not found: ${listId}`);
      const inputErrors: Array<{ index: number; code: string }> = [];
      rows.forEach((r, i) => {
        if (!state.findVariant(r.productId, r.variantId)) inputErrors.push({ index: i, code: "NOT_FOUND" });
        else if (
          !(r.price.sellPrice >= 0) ||
          (r.price.discountPrice != null && !(r.price.discountPrice >= 0))
        ) {
          inputErrors.push({ index: i, code: "INVALID_VALUE" });
        }
      });
      if (inputErrors.length > 0) {
        const bad = inputErrors.map((x) => x.index);
        throw validationError(
          `Invalid price input at index ${bad.join(", ")}: unknown product or variant, or bad price`,
          {
            invalidInputIndexes: bad,
            inputErrors,
          },
        );
      }
      const ts = state.tick();
      for (const r of rows) {
        const v = state.findVariant(r.productId, r.variantId);
        if (!v) continue;
        const price = toPrice({ ...r.price, priceListId: listId });
        const i = v.prices.findIndex((x) => x.priceListId === listId);
        if (i >= 0) v.prices[i] = price;
        else v.prices.push(price);
        const p = state.products.get(r.productId);
        if (p) p.updatedAt = ts;
      }
      return true;
    },

    updateOrderPackageStatus: (a) => {
      const input = (
        a as {
          input: {
            orderId: string;
            packages: Array<{
              packageId: string;
              status: string;
              trackingInfo?: {
                trackingNumber?: string | null;
                cargoCompany?: string | null;
                trackingLink?: string | null;
              } | null;
            }>;
          };
        }
      ).input;
      const order = state.getOrder(input.orderId);
      if (!order)
        throw new GraphQLError(`Order not found: ${input.orderId}`, { extensions: { code: "NOT_FOUND" } });
      for (const p of input.packages) {
        if (!order.orderPackages.some((x) => x.id === p.packageId))
          throw validationError(`Package not found: ${p.packageId}`);
      }
      for (const p of input.packages) {
        const pkg = order.orderPackages.find((x) => x.id === p.packageId);
        if (!pkg) continue;
        pkg.orderPackageFulfillStatus = p.status;
        if (p.trackingInfo) {
          pkg.trackingInfo = {
            trackingNumber: p.trackingInfo.trackingNumber ?? null,
            cargoCompany: p.trackingInfo.cargoCompany ?? null,
            trackingLink: p.trackingInfo.trackingLink ?? null,
          };
        }
      }
      derivePackageStatus(order);
      state.touchOrder(order);
      return order;
    },

    addOrderInvoice: (a) => {
      const input = (
        a as {
          input: {
            orderId: string;
            invoiceNumber: string;
            invoiceDate?: number | null;
            ettn?: string | null;
            base64?: string | null;
            fileName?: string | null;
          };
        }
      ).input;
      const order = state.getOrder(input.orderId);
      if (!order)
        throw new GraphQLError(`Order not found: ${input.orderId}`, { extensions: { code: "NOT_FOUND" } });
      if (!input.invoiceNumber.trim()) throw validationError("invoiceNumber is required");
      if (
        order.invoices.some(
          (i) => i.invoiceNumber === input.invoiceNumber || (input.ettn && i.ettn === input.ettn),
        )
      ) {
        return order; // already attached: same answer, no duplicate
      }
      order.invoices.push({
        id: state.uuid(),
        invoiceNumber: input.invoiceNumber,
        invoiceDate: input.invoiceDate ?? state.tick(),
        ettn: input.ettn ?? null,
        fileName: input.fileName ?? null,
        size: input.base64 ? Math.floor((input.base64.length * 3) / 4) : 0,
      });
      state.touchOrder(order);
      return order;
    },
  };
}

let cachedSchema: GraphQLSchema | undefined;
export function ikasSchema(): GraphQLSchema {
  cachedSchema ??= buildSchema(IKAS_SDL);
  return cachedSchema;
}

export type { IkasAddress };
