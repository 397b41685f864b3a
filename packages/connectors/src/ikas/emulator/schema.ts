/**
 * Resolvers of the IKAS emulator. They run against the schema derived from `@ikas/api-client`
 * (../judge), so types, enums and nullability are IKAS's own: the emulator refuses what the real API
 * refuses. Behaviour the package does not describe (row errors, limits) is listed in ../VERIFIED.md.
 */

import { GraphQLError, type GraphQLSchema } from "graphql";
import { ikasJudgeSchema } from "../judge/schema";
import type {
  IkasAddress,
  IkasCategory,
  IkasOrder,
  IkasPackage,
  IkasPrice,
  IkasProduct,
  IkasProductVariantType,
  IkasState,
  IkasValueRef,
  IkasVariant,
} from "./state";

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

/** The package's code for refused input (`APIErrorCode.ARGUMENT_VALIDATION_ERROR`). */
export function validationError(message: string, extra: Record<string, unknown> = {}): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "ARGUMENT_VALIDATION_ERROR", ...extra } });
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
  variantValueIds?: IkasValueRef[] | null;
}

interface ProductInputShape {
  id?: string | null;
  name: string;
  description?: string | null;
  type: string;
  brandId?: string | null;
  categoryIds?: string[] | null;
  salesChannelIds?: string[] | null;
  productVariantTypes?: IkasProductVariantType[] | null;
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
      firstName: "Ayşe",
      lastName: "Yılmaz",
      merchantName: `${state.storeName} E-Ticaret A.Ş.`,
    }),

    getAuthorizedApp: () => ({
      ...state.authorizedApp,
      addedDate: 0,
      deleted: false,
      scope: "read_products,write_products,read_orders,write_orders,read_inventories,write_inventories",
    }),

    listVariantType: (a) => {
      const args = a as { id?: StringFilter; name?: StringFilter; updatedAt?: DateFilter };
      return [...state.variantTypes.values()].filter(
        (t) =>
          !t.deleted &&
          matchString(t.id, args.id) &&
          matchString(t.name, args.name) &&
          matchDate(t.updatedAt, args.updatedAt),
      );
    },

    saveVariantType: (a) => {
      const input = (
        a as {
          input: {
            id?: string | null;
            name: string;
            selectionType: "CHOICE" | "COLOR";
            values: Array<{ id?: string | null; name: string }>;
          };
        }
      ).input;
      if (!input.name.trim()) throw validationError("name is required");
      const existing = input.id ? state.variantTypes.get(input.id) : undefined;
      if (input.id && !existing) throw validationError(`Variant type not found: ${input.id}`);
      const names = new Set<string>();
      for (const v of input.values) {
        if (!v.name.trim()) throw validationError("variant value name is required");
        if (names.has(v.name)) throw validationError(`Duplicate variant value: ${v.name}`);
        names.add(v.name);
        if (v.id && !existing?.values.some((x) => x.id === v.id))
          throw validationError(`Variant value not found: ${v.id}`);
      }
      const ts = state.tick();
      // Like saveProduct, the value list is replaced: values left out are gone.
      const type = existing ?? {
        id: state.uuid(),
        name: input.name,
        selectionType: input.selectionType,
        values: [],
        createdAt: ts,
        updatedAt: ts,
        deleted: false,
      };
      type.name = input.name;
      type.selectionType = input.selectionType;
      type.values = input.values.map((v) => ({ id: v.id ?? state.uuid(), name: v.name, deleted: false }));
      type.updatedAt = ts;
      state.variantTypes.set(type.id, type);
      return type;
    },

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
      const args = a as { id?: StringFilter; updatedAt?: DateFilter; search?: string };
      const q = args.search?.toLocaleLowerCase("tr-TR");
      return [...state.categories.values()].filter(
        (c) =>
          matchString(c.id, args.id) &&
          matchDate(c.updatedAt, args.updatedAt) &&
          (!q || c.name.toLocaleLowerCase("tr-TR").includes(q)),
      );
    },

    listProductBrand: (a) => {
      const args = a as { id?: StringFilter; search?: string };
      const q = args.search?.toLocaleLowerCase("tr-TR");
      return [...state.brands.values()].filter(
        (c) => matchString(c.id, args.id) && (!q || c.name.toLocaleLowerCase("tr-TR").includes(q)),
      );
    },

    listStockLocation: (a) => {
      const args = a as { id?: StringFilter; name?: StringFilter };
      return state.stockLocations.filter((l) => matchString(l.id, args.id) && matchString(l.name, args.name));
    },
    listPriceList: (a) => state.priceLists.filter((l) => matchString(l.id, (a as { id?: StringFilter }).id)),
    listSalesChannel: (a) =>
      state.salesChannels.filter((c) => matchString(c.id, (a as { id?: StringFilter }).id)),
    listPaymentGateway: (a) =>
      state.paymentGateways.filter((g) => matchString(g.id, (a as { id?: StringFilter }).id)),

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
      if (input.id && !existing) throw validationError(`Product not found: ${input.id}`);
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
        for (const ref of v.variantValueIds ?? []) {
          const type = state.variantTypes.get(ref.variantTypeId);
          if (!type || type.deleted) throw validationError(`Variant type not found: ${ref.variantTypeId}`);
          if (!type.values.some((x) => x.id === ref.variantValueId))
            throw validationError(`Variant value ${ref.variantValueId} is not a value of ${type.name}`);
          const declared = input.productVariantTypes?.find((t) => t.variantTypeId === ref.variantTypeId);
          if (!declared?.variantValueIds.includes(ref.variantValueId))
            throw validationError(
              `Variant value ${ref.variantValueId} is not declared in productVariantTypes of the product`,
            );
        }
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
          variantValueIds: v.variantValueIds ?? [],
          deleted: false,
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
        productVariantTypes: input.productVariantTypes ?? [],
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
        if (!c) throw validationError(`Category not found: ${input.id}`);
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
      const rows =
        (
          a as {
            input: {
              productStockLocationInputs?: Array<{
                productId: string;
                variantId: string;
                stockLocationId: string;
                stockCount: number;
              }> | null;
            };
          }
        ).input.productStockLocationInputs ?? [];
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
      if (!order) throw validationError(`Order not found: ${input.orderId}`);
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

    fulfillOrder: (a) => {
      const input = (
        a as {
          input: {
            orderId: string;
            lines: Array<{ orderLineItemId: string; quantity: number }>;
            markAsReadyForShipment?: boolean | null;
            trackingInfoDetail?: IkasPackage["trackingInfo"] | null;
          };
        }
      ).input;
      const order = state.getOrder(input.orderId);
      if (!order) throw validationError(`Order not found: ${input.orderId}`);
      if (input.lines.length === 0) throw validationError("lines must not be empty");
      const packaged = new Set(order.orderPackages.flatMap((p) => p.orderLineItemIds));
      for (const l of input.lines) {
        const line = order.orderLineItems.find((x) => x.id === l.orderLineItemId);
        if (!line) throw validationError(`Order line not found: ${l.orderLineItemId}`);
        if (packaged.has(l.orderLineItemId)) {
          throw new GraphQLError(`Order line is already packaged: ${l.orderLineItemId}`, {
            extensions: { code: "ORDER_LINE_IS_ALREADY_PACKAGED" },
          });
        }
        if (!(l.quantity > 0 && l.quantity <= line.quantity))
          throw validationError(`Invalid quantity for order line ${l.orderLineItemId}`);
      }
      const status = input.markAsReadyForShipment ? "READY_FOR_SHIPMENT" : "FULFILLED";
      const t = input.trackingInfoDetail;
      order.orderPackages.push({
        id: state.uuid(),
        deleted: false,
        stockLocationId: state.stockLocations[0]?.id ?? "",
        orderPackageNumber: `${order.orderNumber}-${order.orderPackages.length + 1}`,
        orderPackageFulfillStatus: status,
        orderLineItemIds: input.lines.map((l) => l.orderLineItemId),
        trackingInfo: t
          ? {
              trackingNumber: t.trackingNumber ?? null,
              cargoCompany: t.cargoCompany ?? null,
              trackingLink: t.trackingLink ?? null,
            }
          : null,
      });
      for (const l of order.orderLineItems)
        if (input.lines.some((x) => x.orderLineItemId === l.id)) l.status = status;
      derivePackageStatus(order);
      state.touchOrder(order);
      return order;
    },

    addOrderInvoice: (a) => {
      const input = (
        a as {
          input: {
            orderId: string;
            appId: string;
            invoiceNumber: string;
            type: string;
            sendNotificationToCustomer: boolean;
            createdAt?: number | null;
            base64?: string | null;
          };
        }
      ).input;
      const order = state.getOrder(input.orderId);
      if (!order) throw validationError(`Order not found: ${input.orderId}`);
      if (input.appId !== state.authorizedApp.id) throw validationError(`App not found: ${input.appId}`);
      if (!input.invoiceNumber.trim()) throw validationError("invoiceNumber is required");
      if (input.base64 && !/^[A-Za-z0-9+/]*={0,2}$/.test(input.base64))
        throw validationError("base64 must be base64-encoded");
      // No de-duplication is documented, so none is emulated: every call adds an invoice.
      order.invoices.push({
        id: state.uuid(),
        appId: input.appId,
        appName: state.authorizedApp.name,
        storeAppId: state.authorizedApp.storeAppId,
        invoiceNumber: input.invoiceNumber,
        type: input.type,
        createdAt: input.createdAt ?? state.tick(),
        hasPdf: Boolean(input.base64),
        size: input.base64 ? Math.floor((input.base64.length * 3) / 4) : 0,
      });
      state.touchOrder(order);
      return order;
    },
  };
}

/** The emulator executes against the judge itself. */
export function ikasSchema(): GraphQLSchema {
  return ikasJudgeSchema();
}

export type { IkasAddress };
