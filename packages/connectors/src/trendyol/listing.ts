/**
 * Trendyol product listing (issue 37): the brand list, and product create V2
 * (`POST /product/sellers/{id}/v2/products`, at most 1,000 items a request, answered with a
 * `batchRequestId` whose item results are read from getBatchRequestResult). Product V1 writes are
 * retired (rules.ts), so only V2 is sent. Items are keyed by barcode in the results, by stock code here.
 * Variants of one product share its `productMainId` and differ in the category's variant attributes
 * (varianter/slicer), each with one value.
 */

import type { BatchResult } from "../sdk/errors";
import type { ListingItem, MarketplaceListing } from "../sdk/listing";
import type { Option } from "../sdk/model";
import { chunkGroups, round2 } from "../sdk/util";
import { readBatchResults } from "./batch-results";
import type { Row, TrendyolClient } from "./client";
import { TRENDYOL_BATCH, TRENDYOL_MAX_QUANTITY } from "./descriptor";

/** Brands per getBrands page (the page documents size up to 1000). */
const BRAND_PAGE = 1000;

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);

/** The V2 item body: attributes by value id, or free text where the category allows it. */
export function trendyolCreateItem(i: ListingItem): Row {
  const listPrice = round2(Math.max(i.listPrice ?? i.salePrice, i.salePrice));
  return {
    barcode: i.barcode,
    title: i.title.slice(0, 100),
    productMainId: i.modelKey,
    brandId: Number(i.brandId),
    categoryId: Number(i.categoryId),
    quantity: Math.min(TRENDYOL_MAX_QUANTITY, Math.max(0, Math.floor(i.quantity))),
    stockCode: i.sku,
    description: i.description || i.title,
    currencyType: "TRY",
    listPrice,
    salePrice: round2(i.salePrice),
    vatRate: i.vatRate,
    images: i.images.map((url) => ({ url })),
    attributes: i.attributes.map((a) =>
      a.valueId !== undefined
        ? { attributeId: Number(a.attributeId), attributeValueIds: [Number(a.valueId)] }
        : { attributeId: Number(a.attributeId), attributeValue: a.value ?? "" },
    ),
  };
}

export class TrendyolListing implements MarketplaceListing {
  constructor(private readonly client: TrendyolClient) {}

  async listBrands(name?: string): Promise<Option[]> {
    const toOption = (b: Row): Option => ({ id: String(b.id), name: String(b.name ?? "") });
    if (name)
      return rows(await this.client.get("/product/brands/by-name", "getBrandsByName", { name })).map(
        toOption,
      );
    const body = (await this.client.get("/product/brands", "getBrands", {
      page: "0",
      size: String(BRAND_PAGE),
    })) as Row;
    return rows(body?.brands).map(toOption);
  }

  /**
   * Every batch of ≤ 1,000 goes out first, then their results are read together. A batch is a create,
   * not idempotent: it is never retried after a lost answer (Trendyol would refuse the barcodes as
   * taken); its items are then reported unsettled and the next run finds them by stock code.
   */
  async createListings(items: ListingItem[]): Promise<BatchResult> {
    const sent: Array<{ id: string; barcodes: string[] }> = [];
    const skuOf = new Map(items.map((i) => [i.barcode, i.sku]));
    let calls = 0;
    // The variants of one product (one productMainId) go in the same request where they fit.
    for (const part of chunkGroups(items, TRENDYOL_BATCH, (i) => i.modelKey)) {
      const res = await this.client.send(
        "POST",
        this.client.seller("product", "/v2/products"),
        "createProducts.v2",
        { items: part.map(trendyolCreateItem) },
      );
      calls++;
      sent.push({
        id: String((res.json as Row)?.batchRequestId ?? ""),
        barcodes: part.map((i) => i.barcode),
      });
    }
    // A product create batch carries a batch status too: done once it is no longer IN_PROGRESS and every
    // item has its own.
    const read = await readBatchResults(
      this.client,
      sent,
      skuOf,
      "createProducts",
      (b) =>
        String(b?.status ?? "") !== "IN_PROGRESS" &&
        rows(b?.items).every((i) => i.status === "SUCCESS" || i.status === "FAILED"),
    );
    return { ...read, calls: read.calls + calls };
  }
}
