/**
 * n11 product listing (issue 37): the REST product-create task (`POST /ms/product/tasks/product-create`,
 * at most 1,000 SKUs, each SKU a whole product; variants share `productMainId`), its SKU results read from
 * task-details like stock and price (tasks.ts). The SOAP `SaveProduct` it replaced is closed (2025-01-25,
 * VERIFIED.md). n11 keeps no brand list: the brand is the category's `Marka` attribute, so a mapping's
 * brand is free text, sent as that attribute — by its listed value's id when the category lists it.
 */

import { message } from "@ep/contracts";
import { type BatchResult, ConnectorError } from "../sdk/errors";
import type { ListingItem, MarketplaceListing } from "../sdk/listing";
import type { Option } from "../sdk/model";
import { round2 } from "../sdk/util";
import type { N11Client, Row } from "./client";
import {
  N11_BRAND_ATTRIBUTE,
  N11_MAX_QUANTITY,
  N11_PREPARING_DAY,
  N11_TITLE_MIN,
  N11_VAT_RATES,
} from "./descriptor";
import { refusedSku, runN11Tasks } from "./tasks";

const rows = (v: unknown): Row[] => (Array.isArray(v) ? (v as Row[]) : []);
const same = (a: string, b: string) => a.trim().toLocaleLowerCase("tr") === b.trim().toLocaleLowerCase("tr");

/** One product-create attribute: a listed value by id, or free text (`customValue`) where allowed. */
type SkuAttribute = { id: number; valueId: number | null; customValue: string | null };

/** The category's `Marka` attribute with the brand: its listed value's id, else the brand as free text. */
export function brandAttribute(categoryAttributes: Row[], brand: string): SkuAttribute | undefined {
  const attr = categoryAttributes.find((a) => same(String(a.attributeName ?? ""), N11_BRAND_ATTRIBUTE));
  if (!attr || !brand.trim()) return undefined;
  const listed = rows(attr.attributeValues).find((v) => same(String(v.value ?? ""), brand));
  return listed
    ? { id: Number(attr.attributeId), valueId: Number(listed.id), customValue: null }
    : { id: Number(attr.attributeId), valueId: null, customValue: brand.trim() };
}

/** The product-create SKU of one item (prices with two decimals, listPrice never below salePrice). */
export function n11CreateSku(
  i: ListingItem,
  opts: { shipmentTemplate: string; preparingDay: number; brand?: SkuAttribute },
): Row & { stockCode: string } {
  const salePrice = round2(i.salePrice);
  const attributes: SkuAttribute[] = i.attributes.map((a) =>
    a.valueId !== undefined
      ? { id: Number(a.attributeId), valueId: Number(a.valueId), customValue: null }
      : { id: Number(a.attributeId), valueId: null, customValue: a.value ?? "" },
  );
  if (opts.brand) attributes.unshift(opts.brand);
  return {
    title: i.title,
    description: i.description || i.title,
    categoryId: Number(i.categoryId),
    currencyType: "TL",
    productMainId: i.modelKey,
    preparingDay: opts.preparingDay,
    shipmentTemplate: opts.shipmentTemplate,
    stockCode: i.sku,
    barcode: i.barcode,
    quantity: Math.min(N11_MAX_QUANTITY, Math.max(0, Math.floor(i.quantity))),
    // n11 fetches images over HTTPS only.
    images: i.images.filter((u) => /^https:\/\//i.test(u)).map((url, order) => ({ url, order })),
    attributes,
    salePrice,
    listPrice: round2(Math.max(i.listPrice ?? salePrice, salePrice)),
    vatRate: i.vatRate,
  };
}

export class N11Listing implements MarketplaceListing {
  /** n11 has no brand service: `Marka` is one of the category's attributes (free text where allowed). */
  readonly freeTextBrand = true;

  constructor(
    private readonly client: N11Client,
    private readonly categoryAttributes: (categoryId: string) => Promise<Row[]>,
  ) {}

  /** The brand as typed (there is no list to search): what a mapping stores and the task sends. */
  async listBrands(name?: string): Promise<Option[]> {
    const text = name?.trim();
    return text ? [{ id: text, name: text }] : [];
  }

  /**
   * Items that break a documented whole-task rule (a title under 15 characters, a VAT rate n11 does not
   * take) are refused here in n11's words, so one of them does not REJECT the task of a thousand. The
   * rest go in product-create tasks; a create is never sent twice after a lost answer (n11 would refuse
   * the stock code as used): its SKUs are then unsettled and the next run finds them by stock code.
   */
  async createListings(items: ListingItem[]): Promise<BatchResult> {
    const operation = "createListings";
    const shipmentTemplate = (this.client.creds.shipmentTemplate ?? "").trim();
    if (!shipmentTemplate)
      throw new ConnectorError("n11: no shipment template set on the connection", {
        reason: "validation",
        system: "n11",
        operation,
        merchantMessage: message("connectors.n11ShipmentTemplateMissing"),
      });
    const preparingDay = Number(this.client.creds.preparingDay) || N11_PREPARING_DAY;
    const refused: BatchResult["failed"] = [];
    const skus: Array<Row & { stockCode: string }> = [];
    const attributesOf = new Map<string, Promise<Row[]>>();
    for (const i of items) {
      if (i.title.trim().length < N11_TITLE_MIN) {
        refused.push(
          refusedSku(
            operation,
            i.sku,
            `Ürün ekleme isteğinizde ${N11_TITLE_MIN} karakter altında ürün adları tespit edilmiştir`,
          ),
        );
        continue;
      }
      if (!N11_VAT_RATES.includes(i.vatRate)) {
        refused.push(refusedSku(operation, i.sku, `KDV oranı ${N11_VAT_RATES.join(", ")} olabilir`));
        continue;
      }
      if (!attributesOf.has(i.categoryId))
        attributesOf.set(i.categoryId, this.categoryAttributes(i.categoryId));
      const brand = brandAttribute(await attributesOf.get(i.categoryId)!, i.brandId);
      skus.push(n11CreateSku(i, { shipmentTemplate, preparingDay, brand }));
    }
    const sent = await runN11Tasks(
      this.client,
      { path: "/ms/product/tasks/product-create", call: "createProduct", operation, idempotent: false },
      skus,
    );
    return { ...sent, failed: [...refused, ...sent.failed], calls: sent.calls + attributesOf.size };
  }
}
