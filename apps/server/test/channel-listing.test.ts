import { CallCounter, hasListing } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { openCompanyConnectors } from "../src/modules/connections/connector-factory.ts";
import { call, registerAndLogin } from "./harness.ts";
import {
  connectListingChannel,
  erpProductsOf,
  listingStatusesForStranger,
  runChannelListing,
} from "./support/channel-listing.ts";
import { listeningServer } from "./support/listening-server.ts";

/**
 * Issue 37, product listing: a company on the Mikro sandbox with the Trendyol sandbox as a channel maps
 * an ERP category to a Trendyol category (checked against Trendyol's own category, brand and attribute
 * lists), and the channel's listing run opens the ERP's products of that category that Trendyol does not
 * have. A product whose barcode Trendyol already holds under another listing is refused: a failed task
 * with Trendyol's reason. A category of sized models maps the ERP's size option onto Trendyol's variant
 * attribute Beden: each variant goes with its size, and a size the mapping leaves out is a failed task
 * in our words. Another company's ids are not found.
 */
const server = listeningServer("listing");

describe("listing the ERP's products on a marketplace channel", () => {
  let token = "";
  let companyId = 0;
  let channelId = 0;
  let leafId = "";
  let brandId = "";
  let erpCategory = "";
  let toList: Array<{ sku: string; barcode: string }> = [];
  let taken = "";
  let mappingId = 0;
  let sizedCategory = "";
  let sizedList: Array<{ sku: string; barcode: string; size?: string }> = [];

  it("connects Mikro, IKAS and the Trendyol sandbox and reads Trendyol's own lists", async () => {
    ({ token, companyId, channelId, leafId } = await connectListingChannel(server.app, "trendyol"));
    const attrs = await call(
      server.app,
      "GET",
      `/api/channels/${channelId}/categories/${leafId}/attributes`,
      {
        token,
      },
    );
    expect(attrs.body.data.find((x: { name: string }) => x.name === "Renk")).toMatchObject({
      required: true,
      values: expect.arrayContaining([{ id: "100", name: "Siyah" }]),
    });
    // The mapping form types the brand where the marketplace keeps no brand list.
    const profile = await call(server.app, "GET", `/api/channels/${channelId}/listing-profile`, { token });
    expect(profile.body.data).toEqual({ freeTextBrand: false });
    const brands = await call(server.app, "GET", `/api/channels/${channelId}/brands?name=Koton`, { token });
    expect(brands.body.data).toEqual([{ id: expect.any(String), name: "Koton" }]);
    brandId = brands.body.data[0].id;
  }, 180_000);

  it("finds an ERP category with products Trendyol does not have yet", async () => {
    const { opened, products } = await erpProductsOf(server.ctx, companyId, channelId);
    // Mikro keeps a model's sizes as cards of one model code, each named "<model> <size>".
    const cardsOf = new Map<string, number>();
    for (const p of products) cardsOf.set(p.groupKey ?? p.sku, (cardsOf.get(p.groupKey ?? p.sku) ?? 0) + 1);
    const variants = products
      .filter((p) => p.isActive)
      .flatMap((p) =>
        p.variants.map((v) => ({
          category: p.categoryPath.join(" > "),
          sku: v.sku,
          barcode: v.barcodes[0] ?? "",
          size: (cardsOf.get(p.groupKey ?? p.sku) ?? 0) > 1 ? p.name.split(" ").at(-1) : undefined,
        })),
      );
    const sized = new Set(variants.filter((v) => v.size).map((v) => v.category));
    const onTrendyol = await opened.shop.findProductsBySku(variants.map((v) => v.sku));
    const unlisted = variants.filter((v) => !onTrendyol.has(v.sku) && v.barcode);
    const byCategory = new Map<string, typeof unlisted>();
    for (const v of unlisted) byCategory.set(v.category, [...(byCategory.get(v.category) ?? []), v]);
    const most = (keep: (category: string) => boolean) =>
      [...byCategory].filter(([c]) => keep(c)).sort((x, y) => y[1].length - x[1].length)[0]!;
    // Products without sizes first; a category whose sizes are all among Trendyol's Beden values for the
    // variant mapping.
    const [category, list] = most((c) => !sized.has(c));
    expect(list.length).toBeGreaterThanOrEqual(2);
    erpCategory = category;
    toList = list;
    const fits = (c: string) =>
      sized.has(c) &&
      variants.every((v) => v.category !== c || !v.size || ["S", "M", "L", "XL"].includes(v.size));
    [sizedCategory, sizedList] = most(fits);
    expect(sizedList.filter((v) => v.size).length).toBeGreaterThanOrEqual(2);
    // Trendyol already holds one of their barcodes under another listing of the seller.
    taken = list[0]!.sku;
    const shop = opened.shop;
    if (!hasListing(shop)) throw new Error("Trendyol lists products");
    const made = await shop.createListings([
      {
        sku: `OTHER-${list[0]!.barcode}`,
        barcode: list[0]!.barcode,
        modelKey: "OTHER",
        title: "Başka bir ürün",
        description: "Başka bir ürün",
        brandId,
        categoryId: leafId,
        attributes: [{ attributeId: "47", valueId: "101" }],
        quantity: 0,
        salePrice: 10,
        vatRate: 20,
        images: [],
      },
    ]);
    expect(made.applied).toBe(1);
  }, 120_000);

  it("lists the ERP's own categories for the picker, by the paths products carry", async () => {
    const res = await call(server.app, "GET", "/api/settings/custom-data/category-list", { token });
    expect(res.status).toBe(200);
    const paths = (res.body.data as Array<{ id: string; name: string }>).map((o) => o.id);
    expect(paths).toEqual(expect.arrayContaining([erpCategory, sizedCategory]));
    expect(res.body.data).toContainEqual({ id: erpCategory, name: erpCategory });
  }, 60_000);

  it("refuses a mapping that does not fit Trendyol's lists, field by field", async () => {
    const res = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: {
        erpCategory,
        categoryId: leafId,
        brandId: "424242",
        attributes: [{ attributeId: "338", valueId: "999" }],
      },
    });
    expect(res.status).toBe(400);
    const text = JSON.stringify(res.body);
    expect(text).toContain("marka listesinde bu marka yok");
    expect(text).toContain("Zorunlu özellik için pazaryerinin listesinden bir değer seçin: Renk");
    expect(text).toContain("Beden özelliği için pazaryerinin listesindeki bir değeri seçin");
    const parent = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: { erpCategory, categoryId: "999999999", brandId, attributes: [] },
    });
    expect(parent.status).toBe(400);
    // Nothing stored, no listing job yet.
    const none = await call(server.app, "POST", `/api/channels/${channelId}/listing`, { token });
    expect(none.status).toBe(400);
  });

  it("saves the mapping with Trendyol's names, and gives the channel its listing job", async () => {
    const res = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: {
        erpCategory,
        categoryId: leafId,
        brandId,
        attributes: [
          { attributeId: "47", valueId: "100" },
          { attributeId: "14", value: "Pamuk" },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      erpCategory,
      categoryId: leafId,
      brandName: "Koton",
      attributes: [
        { attributeId: "47", name: "Renk", valueId: "100", value: "Siyah" },
        { attributeId: "14", name: "Materyal", value: "Pamuk" },
      ],
    });
    mappingId = res.body.data.id;
    const list = await call(server.app, "GET", `/api/channels/${channelId}/category-mappings`, { token });
    expect(list.body.data).toHaveLength(1);
    const jobs = await call(
      server.app,
      "GET",
      `/api/Job/type-filter/ProductIntegration?channel=${channelId}`,
      {
        token,
      },
    );
    expect(jobs.body.data).toEqual([
      expect.objectContaining({ channel_id: channelId, name: "Ürün Aktarımı" }),
    ]);
  });

  it("opens the unlisted products on Trendyol; the refused one is a failed task with Trendyol's reason", async () => {
    const { run, failed: rows } = await runChannelListing(server, token, channelId);
    expect(run.status, JSON.stringify(run)).toBe("PartiallyFailed");
    expect(rows).toEqual([
      expect.objectContaining({
        entityKey: taken,
        errorType: "validation",
        message: expect.stringContaining("Bu barkod ile ürün zaten var"),
      }),
    ]);
    expect(run.counts).toMatchObject({ written: toList.length - 1, failed: 1 });
    // Every other product of the category is on Trendyol now, under its ERP stock code.
    const opened = await openCompanyConnectors(server.ctx, companyId, new CallCounter(), {}, channelId);
    const found = await opened.shop.findProductsBySku(toList.map((v) => v.sku));
    expect(toList.filter((v) => v.sku !== taken).every((v) => found.has(v.sku))).toBe(true);
    expect(found.has(taken)).toBe(false);
    // A second run sends only the refused one again (the others are listed now): it fails again, alone.
    const { run: second } = await runChannelListing(server, token, channelId);
    expect(second.status).toBe("PartiallyFailed");
    expect(second.counts).toMatchObject({ changed: 1, written: 0, failed: 1 });
  }, 180_000);

  it("reads the ERP's size option of a category, and refuses variant mappings Trendyol's list does not allow", async () => {
    const options = await call(
      server.app,
      "GET",
      `/api/channels/${channelId}/erp-variant-options?category=${encodeURIComponent(sizedCategory)}`,
      { token },
    );
    expect(options.status, JSON.stringify(options.body)).toBe(200);
    const sizes = [...new Set(sizedList.flatMap((v) => (v.size ? [v.size] : [])))];
    expect(options.body.data).toEqual([{ name: "Seçenek", values: expect.arrayContaining(sizes) }]);
    const bad = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: {
        erpCategory: sizedCategory,
        categoryId: leafId,
        brandId,
        attributes: [{ attributeId: "47", valueId: "100" }],
        variants: [
          // Materyal does not make variants; Renk is already a fixed value; 999 is no Beden value.
          { attributeId: "14", erpOption: "Seçenek", values: [{ erpValue: "S", value: "Pamuk" }] },
          { attributeId: "47", erpOption: "Renk", values: [{ erpValue: "Siyah", valueId: "100" }] },
          { attributeId: "338", erpOption: "Seçenek", values: [{ erpValue: "S", valueId: "999" }] },
        ],
      },
    });
    expect(bad.status).toBe(400);
    const text = JSON.stringify(bad.body);
    expect(text).toContain("Materyal pazaryerinde varyant özelliği değil");
    expect(text).toContain("Renk özelliği iki kez eşlenmiş");
    expect(text).toContain("Beden özelliği için pazaryerinin listesindeki bir değeri seçin");
  }, 180_000);

  it("lists each size as a variant with its Beden value; a size left out of the mapping is a failed task", async () => {
    const bedenIds: Record<string, string> = { S: "200", M: "201", L: "202", XL: "203" };
    const sizes = [...new Set(sizedList.flatMap((v) => (v.size ? [v.size] : [])))].sort();
    // One size is left out of the mapping: its variants are refused before anything is sent.
    const left = sizes.at(-1)!;
    const res = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: {
        erpCategory: sizedCategory,
        categoryId: leafId,
        brandId,
        attributes: [{ attributeId: "47", valueId: "101" }],
        variants: [
          {
            attributeId: "338",
            erpOption: "Seçenek",
            values: sizes.filter((z) => z !== left).map((z) => ({ erpValue: z, valueId: bedenIds[z] })),
          },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.variants).toEqual([
      expect.objectContaining({
        attributeId: "338",
        name: "Beden",
        erpOption: "Seçenek",
        values: expect.arrayContaining([
          { erpValue: sizes[0], valueId: bedenIds[sizes[0]!], value: sizes[0] },
        ]),
      }),
    ]);

    const { run, failed: rows } = await runChannelListing(server, token, channelId);
    expect(run.status, JSON.stringify(run)).toBe("PartiallyFailed");
    const unmapped = sizedList.filter((v) => v.size === left).map((v) => v.sku);
    const refused = rows.filter((r) => r.message.includes("eşlenmemiş"));
    expect(refused.map((r) => r.entityKey).sort()).toEqual([...unmapped].sort());
    expect(refused[0]!.message).toContain(
      `Seçenek seçeneğinin "${left}" değeri Beden özelliğine eşlenmemiş: kategori eşlemesinde bu değer için pazaryerinin değerini seçin.`,
    );
    // Every other variant is on Trendyol: two sizes of one model went as two variants (Trendyol refuses
    // a product's second item with the same variant values), so each carried its own Beden value.
    const opened = await openCompanyConnectors(server.ctx, companyId, new CallCounter(), {}, channelId);
    const found = await opened.shop.findProductsBySku(sizedList.map((v) => v.sku));
    expect(sizedList.filter((v) => v.size !== left).every((v) => found.has(v.sku))).toBe(true);
    expect(unmapped.some((sku) => found.has(sku))).toBe(false);
    expect(rows.filter((r) => r.message.includes("aynı varyant"))).toEqual([]);
  }, 180_000);

  it("refuses another company's channel and mapping ids", async () => {
    const seen = await listingStatusesForStranger(
      server.app,
      { channelId, leafId, mappingId },
      { erpCategory, brandId },
    );
    expect(Object.keys(seen).length).toBeGreaterThanOrEqual(6);
    expect(Object.entries(seen).filter(([, status]) => status !== 404)).toEqual([]);
    const stranger = (await registerAndLogin(server.app)).token;
    const options = await call(
      server.app,
      "GET",
      `/api/channels/${channelId}/erp-variant-options?category=${encodeURIComponent(sizedCategory)}`,
      { token: stranger },
    );
    expect(options.status).toBe(404);
    const still = await call(server.app, "GET", `/api/channels/${channelId}/category-mappings`, { token });
    expect(still.body.data).toHaveLength(2);
  }, 60_000);

  it("removes a mapping", async () => {
    const res = await call(
      server.app,
      "DELETE",
      `/api/channels/${channelId}/category-mappings/${mappingId}`,
      {
        token,
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Kategori eşlemesi kaldırıldı.");
  });
});
