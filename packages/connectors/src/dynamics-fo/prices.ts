/**
 * D365 F&O prices: the released product's base sales price (price group "BASE") and the sales price
 * agreements (trade agreements) per price customer group (`SalesPriceAgreements`). Only agreements valid
 * today, for a whole group (no customer account), from quantity ≤ 1, count; of several, the newest start wins
 * within a page. Amounts exclude VAT unless the set-up says otherwise (F&O's default).
 */

import type { Page, PageQuery, Price, PriceGroup } from "../sdk/model";
import { turkishDate } from "../sdk/turkish-time";
import { decodeToken, encodeToken, round2 } from "../sdk/util";
import { DIMENSIONS, dimensionKey, hasDimensions, variantsOf } from "./catalog";
import { type D365Client, num, type Row, str } from "./client";
import { anyOf } from "./odata";

/** The released product's own sales price, as a price group of its own. */
export const BASE_PRICE_GROUP = "BASE";

/** The agreement entity spells the configuration field `ProductconfigurationId` (its reference page). */
const AGREEMENT_DIMENSIONS = DIMENSIONS.map(([f]) =>
  f === "ProductConfigurationId" ? "ProductconfigurationId" : f,
);

const AGREEMENT_FIELDS = [
  "ItemNumber",
  ...AGREEMENT_DIMENSIONS,
  "PriceCustomerGroupCode",
  "CustomerAccountNumber",
  "Price",
  "PriceCurrencyCode",
  "PriceApplicableFromDate",
  "PriceApplicableToDate",
  "FromQuantity",
];

/** "1900-01-01…" is F&O's empty date. */
function isSet(date: string): boolean {
  return date !== "" && !date.startsWith("1900-01-01");
}

export class D365Prices {
  constructor(private readonly api: D365Client) {}

  async listPriceGroups(): Promise<PriceGroup[]> {
    const rows = await this.api.all("PriceCustomerGroups", { select: ["GroupCode", "GroupName"] });
    return [
      {
        id: BASE_PRICE_GROUP,
        name: "Temel satış fiyatı (serbest bırakılan ürün)",
        vatIncluded: false,
        isDefault: true,
      },
      ...rows.map((r) => ({
        id: str(r.GroupCode),
        name: str(r.GroupName) || str(r.GroupCode),
        vatIncluded: false,
      })),
    ];
  }

  async listPrices(q: PageQuery & { priceGroups?: string[] } = {}): Promise<Page<Price>> {
    type Tok = { phase: "base" | "agreements"; next?: string };
    const wanted = q.priceGroups && q.priceGroups.length > 0 ? q.priceGroups : undefined;
    const groups = wanted?.filter((g) => g !== BASE_PRICE_GROUP);
    const first: Tok =
      !wanted || wanted.includes(BASE_PRICE_GROUP) ? { phase: "base" } : { phase: "agreements" };
    const tok = decodeToken<Tok>(q.pageToken, "d365") ?? first;
    const agreementsWanted = !groups || groups.length > 0;

    if (tok.phase === "base") {
      const page = await this.api.page(
        "ReleasedProductsV2",
        { select: ["ItemNumber", "SalesPrice"], pageSize: q.pageSize },
        tok.next,
      );
      const items = page.rows
        .filter((r) => num(r.SalesPrice) > 0)
        .map((r) => ({
          sku: str(r.ItemNumber),
          priceGroup: BASE_PRICE_GROUP,
          amount: round2(num(r.SalesPrice)),
          // Inferred: the base price is in the company's accounting currency (TRY for a Turkish entity).
          currency: "TRY",
          vatIncluded: false,
        }));
      const next: Tok | undefined = page.nextLink
        ? { phase: "base", next: page.nextLink }
        : agreementsWanted
          ? { phase: "agreements" }
          : undefined;
      return { items, nextPageToken: next ? encodeToken(next) : undefined };
    }

    const page = await this.api.page(
      "SalesPriceAgreements",
      {
        filter: groups ? anyOf("PriceCustomerGroupCode", groups) : undefined,
        select: AGREEMENT_FIELDS,
        pageSize: q.pageSize,
      },
      tok.next,
    );
    // Agreement dates are calendar dates of the (Turkish) legal entity, not UTC days.
    const today = turkishDate(this.api.now());
    const rows = page.rows.map(
      ({ ProductconfigurationId, ...r }): Row => ({
        ...r,
        ProductConfigurationId: ProductconfigurationId,
      }),
    );
    const valid = rows.filter((r) => {
      if (!str(r.PriceCustomerGroupCode) || str(r.CustomerAccountNumber)) return false;
      if (num(r.FromQuantity) > 1) return false;
      const from = str(r.PriceApplicableFromDate);
      const to = str(r.PriceApplicableToDate);
      return (!isSet(from) || from.slice(0, 10) <= today) && (!isSet(to) || to.slice(0, 10) >= today);
    });
    const variantNo = new Map<string, string>();
    const dimRows = valid.filter(hasDimensions);
    if (dimRows.length > 0) {
      for (const v of await variantsOf(
        this.api,
        dimRows.map((r) => str(r.ItemNumber)),
      ))
        variantNo.set(dimensionKey(v), str(v.ProductVariantNumber));
    }
    const best = new Map<string, Row>();
    for (const r of valid) {
      const sku = hasDimensions(r) ? variantNo.get(dimensionKey(r)) : str(r.ItemNumber);
      if (!sku) continue;
      const key = `${sku}\u0000${str(r.PriceCustomerGroupCode)}`;
      const cur = best.get(key);
      if (!cur || str(r.PriceApplicableFromDate) > str(cur.PriceApplicableFromDate))
        best.set(key, { ...r, sku });
    }
    const items: Price[] = [...best.values()].map((r) => ({
      sku: str(r.sku),
      priceGroup: str(r.PriceCustomerGroupCode),
      amount: round2(num(r.Price)),
      currency: str(r.PriceCurrencyCode) || "TRY",
      vatIncluded: false,
    }));
    return {
      items,
      nextPageToken: page.nextLink
        ? encodeToken({ phase: "agreements", next: page.nextLink } satisfies Tok)
        : undefined,
    };
  }
}
