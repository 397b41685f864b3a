/**
 * Amazon Türkiye product listing (issue 37): one `putListingsItem` (Listings Items 2021-08-01) per SKU,
 * requirements LISTING, in the product type the category mapping names, its attributes shaped by that
 * type's schema (product-types.ts). Amazon validates the submission at once: ACCEPTED is applied (Amazon
 * goes on building the catalogue item; later issues show on the listing), INVALID is refused with the
 * issues' own words. The brand is free text (an attribute), not an id from a list.
 */

import { type BatchResult, ConnectorError, isConnectorError, isTransient } from "../sdk/errors";
import type { ListingItem, MarketplaceListing } from "../sdk/listing";
import type { Option } from "../sdk/model";
import { round2 } from "../sdk/util";
import type { AmazonClient, Row } from "./client";
import { AMAZON_TR_LOCALE, type AmazonProductTypes, type ProductTypeSchema } from "./product-types";

/** PUTs in flight at once: enough to use the usage plan (5/s), which the client's limiter keeps. */
const IN_FLIGHT = 5;
/** Image locators a listing carries beside the main one (other_product_image_locator_1..8). */
const OTHER_IMAGES = 8;

/** The barcode's type as Amazon names it: 12 digits UPC, 14 GTIN, otherwise EAN (8 or 13). */
export function barcodeType(barcode: string): string {
  if (/^\d{12}$/.test(barcode)) return "upc";
  if (/^\d{14}$/.test(barcode)) return "gtin";
  return "ean";
}

/** A mapped value in the type the schema gives its `value` (the mapping stores text). */
function typed(schema: ProductTypeSchema, name: string, value: string): unknown {
  const t = schema.properties?.[name]?.items?.properties?.value?.type;
  if (t === "number" || t === "integer") return Number(value);
  if (t === "boolean") return value === "true";
  return value;
}

/**
 * The putListingsItem body: each attribute the product type's schema has, as one entry with the
 * marketplace and language selectors its schema declares (Amazon refuses properties a schema lacks).
 */
export function amazonPutBody(i: ListingItem, schema: ProductTypeSchema, marketplaceId: string): Row {
  const attributes: Row = {};
  const put = (name: string, fields: Row) => {
    const declared = schema.properties?.[name]?.items?.properties;
    if (!declared) return;
    attributes[name] = [
      {
        ...fields,
        ...("language_tag" in declared ? { language_tag: AMAZON_TR_LOCALE } : {}),
        ...("marketplace_id" in declared ? { marketplace_id: marketplaceId } : {}),
      },
    ];
  };
  put("condition_type", { value: "new_new" });
  put("item_name", { value: i.title });
  put("brand", { value: i.brandId });
  put("externally_assigned_product_identifier", { type: barcodeType(i.barcode), value: i.barcode });
  put("product_description", { value: i.description || i.title });
  put("purchasable_offer", {
    currency: "TRY",
    our_price: [{ schedule: [{ value_with_tax: round2(i.salePrice) }] }],
  });
  put("fulfillment_availability", {
    fulfillment_channel_code: "DEFAULT",
    quantity: Math.max(0, Math.floor(i.quantity)),
  });
  const [main, ...others] = i.images;
  if (main) put("main_product_image_locator", { media_location: main });
  for (const [n, url] of others.slice(0, OTHER_IMAGES).entries())
    put(`other_product_image_locator_${n + 1}`, { media_location: url });
  for (const a of i.attributes) {
    const value = a.valueId ?? a.value;
    if (value !== undefined) put(a.attributeId, { value: typed(schema, a.attributeId, value) });
  }
  return { productType: i.categoryId, requirements: "LISTING", attributes };
}

/** An INVALID submission as a refusal: its ERROR issues in Amazon's words (issueLocale tr_TR). */
function refusal(sku: string, answer: Row): ConnectorError {
  const issues = (Array.isArray(answer.issues) ? (answer.issues as Row[]) : []).filter(
    (x) => x.severity === "ERROR",
  );
  return new ConnectorError(`amazon putListingsItem: ${String(answer.status ?? "INVALID")}`, {
    reason: "validation",
    system: "amazon",
    operation: "putListingsItem",
    systemCode: issues[0]?.code === undefined ? undefined : String(issues[0].code),
    systemMessage: issues.map((x) => String(x.message)).join("; ") || String(answer.status ?? "INVALID"),
    itemKeys: [sku],
  });
}

export class AmazonListing implements MarketplaceListing {
  /** Amazon keeps no brand list for a seller to pick from: the brand is written on each listing. */
  readonly freeTextBrand = true;

  constructor(
    private readonly client: AmazonClient,
    private readonly types: AmazonProductTypes,
  ) {}

  /** No list to read: a name asked for is the brand as it will be written. */
  async listBrands(name?: string): Promise<Option[]> {
    const n = name?.trim();
    return n ? [{ id: n, name: n }] : [];
  }

  /**
   * One PUT per SKU (a full, idempotent write: a lost answer is safely sent again), a few in flight under
   * the operation's usage plan. A transient failure (429 past the retries, 5xx, timeout) stops the sending:
   * that SKU and those not yet sent are unsettled, sent again by the next run.
   */
  async createListings(items: ListingItem[]): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    const schemas = new Map<string, ProductTypeSchema>();
    const before = this.types.calls;
    for (const type of new Set(items.map((i) => i.categoryId)))
      schemas.set(type, await this.types.schema(type));
    result.calls = this.types.calls - before;
    let stopped: ConnectorError | undefined;
    let next = 0;
    const path = (sku: string) =>
      `/listings/2021-08-01/items/${encodeURIComponent(this.client.sellerId)}/${encodeURIComponent(sku)}`;
    const worker = async () => {
      while (next < items.length) {
        const item = items[next++] as ListingItem;
        if (stopped) {
          result.failed.push({ key: item.sku, error: stopped.with({ itemKeys: [item.sku] }) });
          continue;
        }
        try {
          result.calls++;
          const res = await this.client.call("putListingsItem", "PUT", path(item.sku), {
            query: { marketplaceIds: [this.client.marketplaceId], issueLocale: AMAZON_TR_LOCALE },
            json: amazonPutBody(item, schemas.get(item.categoryId) ?? {}, this.client.marketplaceId),
            idempotent: true,
          });
          const answer = (res.json ?? {}) as Row;
          if (answer.status === "ACCEPTED") result.applied++;
          else result.failed.push({ key: item.sku, error: refusal(item.sku, answer) });
        } catch (e) {
          if (!isConnectorError(e) || e.reason === "auth") throw e;
          if (isTransient(e)) stopped ??= e;
          result.failed.push({ key: item.sku, error: e.with({ itemKeys: [item.sku] }) });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker));
    return result;
  }
}
