/**
 * Hepsiburada product listing against its emulator (issue 37): the category's attributes with their enum
 * values (the fields the import fills from the product left out), the brand as free text, the catalogue
 * import in files of at most 1,000 products answered through the trackingId's status read, per-product
 * refusals in Hepsiburada's words (a mandatory attribute empty, a value not in the list, a merchant SKU
 * or barcode already the merchant's), unsettled products transient, and the judge refusing an import
 * body the catalogue would refuse. Every request is judged with the rules.
 */

import { beforeAll, describe, expect, it } from "vitest";
import type { ListingItem } from "../sdk/listing";
import { hasListing } from "../sdk/listing";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { caught, testContext } from "../testing/contract";
import { ConformanceTally, judgeMarketplaceSuite, refusedListing } from "../testing/contract-suite";
import type { RecordedRequest } from "../testing/recorder";
import { judgeWithRules } from "../testing/runtime-rules";
import { multipartJsonFile } from "./client";
import { createHepsiburadaConnector, type HepsiburadaConnector } from "./connector";
import { type HepsiburadaEmulator, startHepsiburadaEmulator } from "./emulator/server";
import { judgeHepsiburadaRequest } from "./judge/requests";
import { hepsiburadaRules } from "./judge/rules";
import { hepsiburadaImportItem } from "./listing";

const store = new InMemoryRateLimitStore();
const tally = new ConformanceTally(judgeHepsiburadaRequest, hepsiburadaRules());
let emu: HepsiburadaEmulator;
let shop: HepsiburadaConnector;
let leafId = "";

const item = (n: number, over: Partial<ListingItem> = {}): ListingItem => ({
  sku: `HBL-${n}`,
  barcode: `869100${String(n).padStart(7, "0")}`,
  modelKey: `HBLM-${Math.floor(n / 3)}`,
  title: `Basic Tişört ${n}`,
  description: "Pamuklu tişört",
  brandId: "Koton",
  categoryId: leafId,
  attributes: [
    { attributeId: "renk_variant_property", valueId: "Siyah" },
    { attributeId: "GarantiSuresi", value: "24" },
  ],
  quantity: 0,
  salePrice: 199.9,
  vatRate: 10,
  images: ["https://cdn.example.com/tisort.jpg"],
  ...over,
});

const ctx = (maxPolls = 40) => testContext(store, undefined, { asyncBatch: { intervalMs: 15, maxPolls } });

beforeAll(async () => {
  emu = await startHepsiburadaEmulator({ seed: 12, productCount: 20, uploadDelayMs: 40 });
  shop = createHepsiburadaConnector(emu.credentials, ctx()) as HepsiburadaConnector;
  const cats = await shop.listCategories();
  const parents = new Set(cats.map((c) => c.parentId));
  leafId = cats.find((c) => c.parentId && !parents.has(c.id))!.id;
});
judgeMarketplaceSuite("hepsiburada listing", tally, () => emu, 4);

describe("Hepsiburada listing", () => {
  it("offers listing with a free-text brand, and still refuses a shop-style single product write unsent", async () => {
    expect(hasListing(shop)).toBe(true);
    expect(shop.freeTextBrand).toBe(true);
    expect(await shop.listBrands(" Koton ")).toEqual([{ id: "Koton", name: "Koton" }]);
    expect(await shop.listBrands()).toEqual([]);
    const before = emu.counters.writes;
    expect((await refusedListing(shop)).reason).toBe("unsupported");
    expect(emu.counters.writes).toBe(before);
  });

  it("reads a category's attributes with enum values, without the fields the import fills", async () => {
    const attrs = (await shop.listCategoryAttributes(leafId)) ?? [];
    expect(attrs.map((a) => a.id)).toEqual(["GarantiSuresi", "kg", "00000MU", "renk_variant_property"]);
    expect(attrs.find((a) => a.id === "renk_variant_property")).toMatchObject({
      name: "Renk",
      required: true,
      variant: true,
      allowCustom: false,
      values: expect.arrayContaining([{ id: "Siyah", name: "Siyah" }]),
    });
    expect(attrs.find((a) => a.id === "GarantiSuresi")).toMatchObject({ required: true, allowCustom: true });
  });

  it("imports 2,400 products in files of at most 1,000 and reads each trackingId's status", async () => {
    const r = await shop.createListings(Array.from({ length: 2400 }, (_, n) => item(n)));
    expect(r.failed).toEqual([]);
    expect(r.applied).toBe(2400);
    const imports = emu.recorder.list().filter((q) => q.path.endsWith("/products/import"));
    const sizes = imports.map((q) => {
      const part = /\r\n\r\n(\[.*\])\r\n--/s.exec(String(q.body))?.[1] ?? "[]";
      return (JSON.parse(part) as unknown[]).length;
    });
    expect(sizes).toEqual([1000, 1000, 400]);
    const ids = await shop.findProductsBySku(["HBL-0", "HBL-2399"]);
    expect(ids.size).toBe(2);
  });

  it("reports each refused product with Hepsiburada's words, and applies the rest", async () => {
    const r = await shop.createListings([
      item(5000),
      item(5001, { attributes: [{ attributeId: "GarantiSuresi", value: "24" }] }),
      item(5002, {
        attributes: [...item(0).attributes.slice(1), { attributeId: "renk_variant_property", value: "Mor" }],
      }),
      item(5003, { barcode: item(1).barcode }),
      item(0),
    ]);
    expect(r.applied).toBe(1);
    const why = new Map(r.failed.map((f) => [f.key, f.error]));
    expect(why.get("HBL-5001")).toMatchObject({
      reason: "validation",
      systemMessage: "Renk: Zorunlu alan boş bırakılamaz",
    });
    expect(why.get("HBL-5002")?.systemMessage).toBe("Renk: Geçersiz değer: Mor");
    expect(why.get("HBL-5003")?.systemMessage).toMatch(/Bu barkod başka bir ürününüzde kullanılıyor/);
    expect(why.get("HBL-0")?.systemMessage).toMatch(/Bu satıcı stok kodu ile ürün zaten var: HBL-0/);
  });

  it("a product whose status stays PROCESSING is transient (sent again next run), not refused", async () => {
    const slow = await startHepsiburadaEmulator({ seed: 13, productCount: 2, uploadDelayMs: 60_000 });
    try {
      const conn = createHepsiburadaConnector(slow.credentials, ctx(2)) as HepsiburadaConnector;
      const cats = await conn.listCategories();
      const leaf = cats.find((c) => c.parentId)!.id;
      const r = await conn.createListings([item(9000, { categoryId: leaf })]);
      expect(r.applied).toBe(0);
      expect(r.failed[0]?.error).toMatchObject({ reason: "unavailable" });
      const ops = slow.recorder.list().map((q) => judgeHepsiburadaRequest(q)?.operation);
      expect(ops.filter((o) => o === "getImportStatus")).toHaveLength(2);
    } finally {
      await slow.close();
    }
  });

  it("sends the brand as Marka, the price with a decimal comma, mapped values by their text", () => {
    const body = hepsiburadaImportItem(emu.credentials.merchantId as string, item(1, { salePrice: 1234.5 }));
    expect(body).toEqual({
      categoryId: Number(leafId),
      merchant: emu.credentials.merchantId,
      attributes: {
        merchantSku: "HBL-1",
        VaryantGroupID: "HBLM-0",
        Barcode: "8691000000001",
        UrunAdi: "Basic Tişört 1",
        UrunAciklamasi: "Pamuklu tişört",
        Marka: "Koton",
        tax_vat_rate: "10",
        price: "1234,50",
        stock: "0",
        Image1: "https://cdn.example.com/tisort.jpg",
        renk_variant_property: "Siyah",
        GarantiSuresi: "24",
      },
    });
  });

  it("the judge and the rules refuse an import Hepsiburada refuses", async () => {
    const req = (json: unknown, name = "file"): RecordedRequest => {
      const { body } = multipartJsonFile("integrator.json", json);
      return {
        method: "POST",
        path: "/mpop/product/api/products/import",
        query: { version: "1" },
        headers: { authorization: "Basic eDp5", "user-agent": "dev_user" },
        body: name === "file" ? body : body.replace('name="file"', `name="${name}"`),
        at: Date.now(),
      };
    };
    const good = hepsiburadaImportItem(emu.credentials.merchantId as string, item(1));
    expect(judgeHepsiburadaRequest(req([good]))?.problems).toEqual([]);
    const bad = {
      ...good,
      attributes: { ...(good.attributes as object), price: "199.90", Image11: "x", Marka: undefined },
    };
    expect(judgeHepsiburadaRequest(req([bad]))?.problems).toEqual([
      "[0].attributes.Marka required",
      "[0].attributes.Image11: Image1…Image10 only",
      '[0].attributes.price must be written like "130,50"',
    ]);
    expect(judgeHepsiburadaRequest(req([good], "upload"))?.problems).toContain(
      "a file part named 'file' (with a filename) is required",
    );
    const big = Array.from({ length: 1001 }, () => good);
    expect(JSON.stringify(judgeWithRules([req(big)], judgeHepsiburadaRequest, hepsiburadaRules()))).toMatch(
      /hepsiburada\.import-file-1000/,
    );
    // The emulator judges the same way: a whole file refused before anything is taken.
    const before = emu.listings.length;
    const e = await caught(shop.createListings([item(7000, { salePrice: Number.NaN })]));
    expect(e.reason).toBe("validation");
    expect(emu.listings.length).toBe(before);
    emu.recorder.clear(); // the deliberate bad request, judged above
  });
});
