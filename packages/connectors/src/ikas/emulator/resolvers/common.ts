/** Shared pieces of the IKAS emulator's resolvers: filters, paging, sorting, refusals. */

import { GraphQLError } from "graphql";
import type { WebhookOutbox } from "../../../testing/webhooks";
import type { IkasState } from "../state";
import type { IkasPrice, IkasProductVariantType, IkasValueRef } from "../types";

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

export interface StringFilter {
  eq?: string | null;
  ne?: string | null;
  in?: string[] | null;
  nin?: string[] | null;
}
export interface DateFilter {
  gt?: number | null;
  gte?: number | null;
  lt?: number | null;
  lte?: number | null;
}
export interface Pagination {
  limit?: number | null;
  page?: number | null;
}

export function matchString(v: string | null | undefined, f: StringFilter | null | undefined): boolean {
  if (!f) return true;
  if (f.eq != null && v !== f.eq) return false;
  if (f.ne != null && v === f.ne) return false;
  if (f.in && !(v != null && f.in.includes(v))) return false;
  if (f.nin && v != null && f.nin.includes(v)) return false;
  return true;
}

export function matchDate(v: number, f: DateFilter | null | undefined): boolean {
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

export function page<T>(items: T[], p: Pagination | null | undefined, maxLimit: number) {
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

export function sortBy<T extends { updatedAt: number; createdAt: number }>(
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
  /** Webhook subscriptions (`saveWebhook`, `listWebhook`, `deleteWebhook`). */
  webhooks?: WebhookOutbox;
}

export type Args = Record<string, unknown>;
export type Resolvers = Record<string, (args: Args) => unknown>;

export interface VariantInputShape {
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

export interface ProductInputShape {
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

export function toPrice(p: VariantInputShape["prices"][number]): IkasPrice {
  return {
    priceListId: p.priceListId ?? null,
    sellPrice: p.sellPrice,
    discountPrice: p.discountPrice ?? null,
    buyPrice: p.buyPrice ?? null,
    currency: p.currency ?? "TRY",
  };
}
