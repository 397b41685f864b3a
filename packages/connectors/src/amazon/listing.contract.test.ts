/**
 * Amazon Türkiye product listing against its emulator (issue 37): product types as categories, a type's
 * attributes from its JSON Schema (behind the definition's link), the brand as free text, one
 * putListingsItem per SKU within its usage plan, refusals in Amazon's words (INVALID with issues: a
 * required attribute missing, a value off the list, an EAN another SKU holds), unsettled SKUs transient.
 * Every request is judged with Amazon's models and the rules after each test.
 */

import { beforeAll, describe, expect, it } from "vitest";
import { isTransient } from "../sdk/errors";
import { hasListing, type ListingItem } from "../sdk/listing";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { testContext } from "../testing/contract";
import { ConformanceTally, judgeMarketplaceSuite } from "../testing/contract-suite";
import type { RecordedRequest } from "../testing/recorder";
import { judgeWithRules } from "../testing/runtime-rules";
import { type AmazonConnector, createAmazonConnector } from "./connector";
import { productTypeSchema } from "./emulator/listing";
import { type AmazonEmulator, startAmazonEmulator } from "./emulator/server";
import { amazonJudge } from "./judge/openapi";
import { amazonRules } from "./judge/rules";
import { amazonPutBody, barcodeType } from "./listing";
import { mappableAttributes } from "./product-types";

const SCALE = { rateScale: 1000, feedWindowMs: 50 };
const store = new InMemoryRateLimitStore();
const judge = amazonJudge();
const tally = new ConformanceTally(judge.requestJudge, amazonRules(SCALE));
let emu: AmazonEmulator;
let shop: AmazonConnector;
let company = 0;
const connect = () =>
  createAmazonConnector(emu.credentials, testContext(store, undefined, { companyId: `amzl-${++company}` }));

const SHIRT = [
  { attributeId: "department", valueId: "erkek" },
  { attributeId: "color", value: "Lacivert" },
  { attributeId: "bullet_point", value: "Pamuklu, uzun kollu gömlek" },
  { attributeId: "country_of_origin", valueId: "TR" },
  { attributeId: "supplier_declared_dg_hz_regulation", valueId: "not_applicable" },
];
const item = (n: number, over: Partial<ListingItem> = {}): ListingItem => ({
  sku: `AMZ-LST-${n}`,
  barcode: `868${String(n).padStart(10, "0")}`,
  modelKey: `AMZ-M-${n}`,
  title: `Oxford Gömlek ${n}`,
  description: "Pamuklu oxford gömlek",
  brandId: "Koton",
  categoryId: "SHIRT",
  attributes: SHIRT,
  quantity: 0,
  salePrice: 499.9,
  vatRate: 10,
  images: ["https://cdn.example.com/gomlek.jpg", "https://cdn.example.com/gomlek-2.jpg"],
  ...over,
});
const puts = () => emu.recorder.list().filter((r) => r.method === "PUT" && r.path.startsWith("/listings/"));

beforeAll(async () => {
  emu = await startAmazonEmulator({ seed: 5, productCount: 30, ...SCALE });
  shop = connect() as AmazonConnector;
});
judgeMarketplaceSuite(
  "amazon listing",
  tally,
  () => emu,
  5,
  (e) => expect(e.answerProblems).toEqual([]),
);

describe("Amazon listing: product types, attributes and brands", () => {
  it("offers listing with the brand as free text (Amazon keeps no brand list)", async () => {
    expect(hasListing(shop)).toBe(true);
    expect(shop.freeTextBrand).toBe(true);
    expect(await shop.listBrands(" Koton ")).toEqual([{ id: "Koton", name: "Koton" }]);
    expect(await shop.listBrands()).toEqual([]);
  });

  it("reads a type's required and listed attributes from its schema, in Turkish, once per connector", async () => {
    const attrs = await shop.listCategoryAttributes("SHIRT");
    const byId = new Map(attrs.map((a) => [a.id, a]));
    expect(byId.get("department")).toMatchObject({
      name: "Bölüm",
      required: true,
      allowCustom: false,
      values: expect.arrayContaining([{ id: "erkek", name: "Erkek" }]),
    });
    // Suggested colours beside free text (an anyOf), required by this type.
    expect(byId.get("color")).toMatchObject({ required: true, allowCustom: true });
    expect(byId.get("color")?.values.length).toBeGreaterThan(0);
    expect(byId.get("bullet_point")).toMatchObject({ required: true, allowCustom: true, values: [] });
    // What the listing fills from the product is not mapped; an optional free-text attribute neither.
    for (const filled of ["item_name", "brand", "externally_assigned_product_identifier", "material"])
      expect(byId.has(filled)).toBe(false);
    await shop.listCategoryAttributes("SHIRT");
    const reads = emu.recorder.list().filter((r) => r.path.startsWith("/product-type-schemas/"));
    expect(reads).toHaveLength(1);
  });
});

describe("Amazon listing: putListingsItem", () => {
  it("opens 60 SKUs, one PUT each within the usage plan; Amazon then finds them by SKU", async () => {
    const items = Array.from({ length: 60 }, (_, n) => item(n));
    const r = await shop.createListings(items);
    expect(r.failed).toEqual([]);
    expect(r.applied).toBe(60);
    expect(puts()).toHaveLength(60);
    const q = puts()[0]!;
    expect(q.query).toMatchObject({ marketplaceIds: "A33AVAJ2PDY3EV", issueLocale: "tr_TR" });
    expect((q.body as { productType: string }).productType).toBe("SHIRT");
    const found = await shop.findProductsBySku(items.map((i) => i.sku));
    expect(found.size).toBe(60);
    expect(found.get("AMZ-LST-0")).toMatchObject({
      variantId: "SHIRT",
      productId: expect.stringMatching(/^B0/),
    });
    expect(emu.listings.find((l) => l.sku === "AMZ-LST-1")).toMatchObject({
      brand: "Koton",
      price: 499.9,
      ean: "8680000000001",
    });
  });

  it("refuses each invalid SKU with Amazon's issue messages, and opens the rest", async () => {
    const r = await shop.createListings([
      item(100),
      item(101, { attributes: SHIRT.filter((a) => a.attributeId !== "department") }),
      item(102, {
        attributes: SHIRT.map((a) => (a.attributeId === "department" ? { ...a, valueId: "çocuk" } : a)),
      }),
      item(103, { barcode: "8680000000005" }), // AMZ-LST-5 carries this EAN
    ]);
    expect(r.applied).toBe(1);
    const why = new Map(r.failed.map((f) => [f.key, f.error]));
    expect(why.get("AMZ-LST-101")).toMatchObject({
      reason: "validation",
      systemCode: "90220",
      systemMessage: "'Bölüm' gerekli, ancak sağlanmadı.",
    });
    expect(why.get("AMZ-LST-102")?.systemMessage).toMatch(/'Bölüm' için sağlanan değer geçersiz/);
    expect(why.get("AMZ-LST-103")?.systemMessage).toMatch(/EAN 8680000000005.*AMZ-LST-5/);
    expect([...why.values()].every((e) => !isTransient(e))).toBe(true);
    expect(emu.listings.some((l) => l.sku === "AMZ-LST-101")).toBe(false);
  });

  it("leaves SKUs unsettled (transient) once Amazon keeps failing, without sending the rest", async () => {
    emu.faults.set({ queue: [{ kind: "5xx", operation: "putListingsItem", times: 40 }] });
    const conn = connect();
    if (!hasListing(conn)) throw new Error("Amazon lists");
    const items = Array.from({ length: 12 }, (_, n) => item(200 + n));
    const r = await conn.createListings(items);
    emu.faults.clear();
    expect(r.applied).toBe(0);
    expect(r.failed).toHaveLength(12);
    expect(r.failed.every((f) => isTransient(f.error))).toBe(true);
    // At most the SKUs in flight were tried (each with its retries); the others never left.
    const tried = new Set(puts().map((p) => p.path.split("/").pop()));
    expect(tried.size).toBeLessThanOrEqual(5);
    const sent = new Set(items.map((i) => i.sku));
    expect(emu.listings.some((l) => sent.has(String(l.sku)))).toBe(false);
  });

  it("shapes the body by the type's schema: selectors it declares, typed values, EAN / UPC", () => {
    const home = productTypeSchema("HOME") as Parameters<typeof amazonPutBody>[1];
    const body = amazonPutBody(
      item(1, { categoryId: "HOME", attributes: [{ attributeId: "number_of_items", value: "4" }] }),
      home,
      "A33AVAJ2PDY3EV",
    );
    const a = body.attributes as Record<string, Array<Record<string, unknown>>>;
    expect(a.number_of_items).toEqual([{ value: 4, marketplace_id: "A33AVAJ2PDY3EV" }]);
    expect(a.item_name).toEqual([
      { value: "Oxford Gömlek 1", language_tag: "tr_TR", marketplace_id: "A33AVAJ2PDY3EV" },
    ]);
    expect(a.fulfillment_availability).toEqual([{ fulfillment_channel_code: "DEFAULT", quantity: 0 }]);
    expect(a.other_product_image_locator_1).toEqual([
      { media_location: "https://cdn.example.com/gomlek-2.jpg", marketplace_id: "A33AVAJ2PDY3EV" },
    ]);
    expect(body).toMatchObject({ productType: "HOME", requirements: "LISTING" });
    expect([barcodeType("8680000000001"), barcodeType("012345678905")]).toEqual(["ean", "upc"]);
    // The HOME type's own required attribute is offered for mapping.
    expect(mappableAttributes(home).find((x) => x.id === "number_of_items")?.required).toBe(true);
  });

  it("the judge refuses a body without productType, and the usage plan rule a burst over 10", () => {
    const path = `/listings/2021-08-01/items/${emu.credentials.sellerId}/X-1`;
    const req = (at: number, body: unknown): RecordedRequest => ({
      method: "PUT",
      path,
      query: { marketplaceIds: "A33AVAJ2PDY3EV" },
      headers: { "x-amz-access-token": "Atza|x" },
      body,
      at,
    });
    const v = judge.judgeRequest(req(0, { attributes: {} }));
    expect(v.operation).toBe("putListingsItem");
    expect(v.problems.join("; ")).toMatch(/productType/);
    const burst = Array.from({ length: 11 }, (_, n) =>
      req(1000 + n, { productType: "SHIRT", attributes: {} }),
    );
    const ruled = judgeWithRules(burst, judge.requestJudge, amazonRules());
    expect(JSON.stringify(ruled)).toMatch(/putListingsItem over its usage plan/);
  });
});
