/**
 * Hepsiburada product listing (issue 37) through the Merchant Catalog Service: the products go as a JSON
 * file (`integrator.json`, an array of `{categoryId, merchant, attributes}`) uploaded to
 * `POST /product/api/products/import`, answered with a `trackingId`; each product's outcome is read from
 * `GET /product/api/products/status/{trackingId}` (`importStatus` SUCCESS / FAILED / PROCESSING, refusals
 * in `importMessages` and `validationResults`). Every value is an attribute keyed by Hepsiburada's own
 * id: brand (`Marka`) is free text, enum attributes take their listed value's text.
 */

import { type AsyncItemOutcome, asyncBatchResult, pollBatchResults } from "../sdk/async-batch";
import type { BatchResult } from "../sdk/errors";
import type { ListingItem, MarketplaceListing } from "../sdk/listing";
import type { Option } from "../sdk/model";
import { chunk } from "../sdk/util";
import type { HepsiburadaClient, Row } from "./client";
import { HEPSIBURADA_IMAGES, HEPSIBURADA_IMPORT_BATCH } from "./descriptor";

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);

/** A price as the import's sample writes it: a string with a decimal comma ("130,50"). */
const hbPrice = (n: number) => n.toFixed(2).replace(".", ",");

/** One product of the import file; the category mapping's attributes go in beside the product's own. */
export function hepsiburadaImportItem(merchantId: string, i: ListingItem): Row {
  const attributes: Row = {
    merchantSku: i.sku,
    VaryantGroupID: i.modelKey,
    Barcode: i.barcode,
    UrunAdi: i.title,
    UrunAciklamasi: i.description || i.title,
    Marka: i.brandId,
    tax_vat_rate: String(i.vatRate),
    price: hbPrice(i.salePrice),
    stock: String(Math.max(0, Math.floor(i.quantity))),
  };
  i.images.slice(0, HEPSIBURADA_IMAGES).forEach((url, n) => {
    attributes[`Image${n + 1}`] = url;
  });
  for (const a of i.attributes) attributes[a.attributeId] = a.valueId ?? a.value ?? "";
  return { categoryId: Number(i.categoryId), merchant: merchantId, attributes };
}

/** A product's refusal in Hepsiburada's words: its ERROR messages, then each failed attribute check. */
function refusal(s: Row): string {
  const errors = rows(s.importMessages)
    .filter((m) => String(m.severity ?? "").toUpperCase() === "ERROR")
    .map((m) => String(m.message ?? ""));
  const checks = rows(s.validationResults).map((v) =>
    v.attributeName ? `${String(v.attributeName)}: ${String(v.message ?? "")}` : String(v.message ?? ""),
  );
  const rejects = (Array.isArray(s.rejectReasonsMessages) ? s.rejectReasonsMessages : []).map(String);
  return [...errors, ...checks, ...rejects].filter(Boolean).join("; ") || "FAILED";
}

export class HepsiburadaListing implements MarketplaceListing {
  /** Hepsiburada keeps no brand list for integrators: `Marka` is free text, checked in catalogue review. */
  readonly freeTextBrand = true;

  constructor(private readonly client: HepsiburadaClient) {}

  /** The brand as typed (there is no list to search): what a mapping stores and the import sends. */
  async listBrands(name?: string): Promise<Option[]> {
    const text = name?.trim();
    return text ? [{ id: text, name: text }] : [];
  }

  /**
   * Every file of ≤ 1,000 products goes out first, then their statuses are read together until no
   * product of a file is PROCESSING. An import is a create: never sent twice after a lost answer; its
   * products are then reported unsettled and the next run finds what Hepsiburada took by merchant SKU.
   */
  async createListings(items: ListingItem[]): Promise<BatchResult> {
    const sent: Array<{ id: string; skus: string[] }> = [];
    for (const part of chunk(items, HEPSIBURADA_IMPORT_BATCH)) {
      const res = await this.client.uploadFile(
        "catalog",
        "/api/products/import",
        "importProducts",
        {
          name: "integrator.json",
          json: part.map((i) => hepsiburadaImportItem(this.client.merchantId, i)),
        },
        { version: "1" },
      );
      const body = (res.json ?? {}) as Row;
      sent.push({
        id: String((body.data as Row | undefined)?.trackingId ?? body.trackingId ?? ""),
        skus: part.map((i) => i.sku),
      });
    }
    const bySku = (answer: Row) => new Map(rows(answer?.data).map((s) => [String(s.merchantSku ?? ""), s]));
    const settled = (s: Row | undefined) => {
      const st = String(s?.importStatus ?? "").toUpperCase();
      return st === "SUCCESS" || st === "FAILED";
    };
    const skusOf = new Map(sent.map((b) => [b.id, b.skus]));
    const { answers, reads } = await pollBatchResults(
      sent.map((b) => b.id),
      async (id) =>
        (await this.client.get(
          "catalog",
          `/api/products/status/${encodeURIComponent(id)}`,
          "getImportStatus",
          { version: "1", page: "0", size: String(HEPSIBURADA_IMPORT_BATCH) },
        )) as Row,
      (answer, id) => {
        const statuses = bySku(answer);
        return (skusOf.get(id) ?? []).every((sku) => settled(statuses.get(sku)));
      },
      this.client.ctx.asyncBatch,
    );
    const outcomes: AsyncItemOutcome[] = sent.flatMap(({ id, skus }) => {
      const statuses = bySku(answers.get(id) ?? {});
      return skus.map((key): AsyncItemOutcome => {
        const s = statuses.get(key);
        const st = String(s?.importStatus ?? "").toUpperCase();
        if (st === "SUCCESS") return { key, state: "applied" };
        if (st === "FAILED" && s) return { key, state: "failed", message: refusal(s) };
        return { key, state: "pending" };
      });
    });
    return asyncBatchResult("hepsiburada", "createListings", outcomes, sent.length + reads);
  }
}
