/** IKAS emulator: stock per location and prices per list, batched, with refused rows named. */

import type { IkasProduct } from "../types";
import {
  type IkasResolverContext,
  type Resolvers,
  toPrice,
  type VariantInputShape,
  validationError,
} from "./common";

export function inventoryResolvers(ctx: IkasResolverContext): Resolvers {
  const { state, limits, stats } = ctx;
  const validLocations = () => new Set(state.stockLocations.map((s) => s.id));
  const validLists = () => new Set(state.priceLists.map((s) => s.id));

  return {
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
  };
}
