import { CallCounter, hasListing } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { openCompanyConnectors } from "../src/modules/connections/connector-factory.ts";
import { call } from "./harness.ts";
import {
  connectListingChannel,
  largestUnlistedCategory,
  listingStatusesForStranger,
  runChannelListing,
} from "./support/channel-listing.ts";
import { listeningServer } from "./support/listening-server.ts";

/**
 * Issue 37, product listing on Hepsiburada: a company on the Mikro sandbox with the Hepsiburada sandbox as
 * a channel maps an ERP category to a Hepsiburada category (checked against Hepsiburada's category and
 * attribute lists, enum values included; the brand is free text, as Hepsiburada's `Marka` is), and the
 * channel's listing run opens the ERP's products of that category through the catalogue import and its
 * status read. A product whose barcode the merchant already uses under another SKU is refused: a failed
 * task with Hepsiburada's words. Another company's channel id is not found.
 */
const server = listeningServer("listing-hb");

describe("listing the ERP's products on a Hepsiburada channel", () => {
  let token = "";
  let companyId = 0;
  let channelId = 0;
  let leafId = "";
  let erpCategory = "";
  let toList: Array<{ sku: string; barcode: string }> = [];
  let taken = "";

  it("connects the Hepsiburada sandbox and reads its category, attribute and (free-text) brand lists", async () => {
    ({ token, companyId, channelId, leafId } = await connectListingChannel(server.app, "hepsiburada"));
    const attrs = await call(
      server.app,
      "GET",
      `/api/channels/${channelId}/categories/${leafId}/attributes`,
      { token },
    );
    expect(attrs.status).toBe(200);
    expect(attrs.body.data.find((x: { id: string }) => x.id === "renk_variant_property")).toMatchObject({
      name: "Renk",
      required: true,
      variant: true,
      values: expect.arrayContaining([{ id: "Siyah", name: "Siyah" }]),
    });
    // The fields the import fills from the product are not offered for mapping.
    expect(attrs.body.data.some((x: { id: string }) => x.id === "Barcode")).toBe(false);
    // The mapping form types the brand where the marketplace keeps no brand list.
    const profile = await call(server.app, "GET", `/api/channels/${channelId}/listing-profile`, { token });
    expect(profile.body.data).toEqual({ freeTextBrand: true });
    const brands = await call(server.app, "GET", `/api/channels/${channelId}/brands?name=Koton`, { token });
    expect(brands.body.data).toEqual([{ id: "Koton", name: "Koton" }]);
  }, 180_000);

  it("finds an ERP category with products Hepsiburada does not have yet; one barcode is already in use", async () => {
    const { category, list, shop } = await largestUnlistedCategory(server.ctx, companyId, channelId);
    expect(list.length).toBeGreaterThanOrEqual(2);
    erpCategory = category;
    toList = list;
    taken = list[0]!.sku;
    if (!hasListing(shop)) throw new Error("Hepsiburada lists products");
    const made = await shop.createListings([
      {
        sku: `OTHER-${list[0]!.barcode}`,
        barcode: list[0]!.barcode,
        modelKey: "OTHER",
        title: "Başka bir ürün",
        description: "Başka bir ürün",
        brandId: "Koton",
        categoryId: leafId,
        attributes: [
          { attributeId: "renk_variant_property", valueId: "Beyaz" },
          { attributeId: "GarantiSuresi", value: "12" },
        ],
        quantity: 0,
        salePrice: 10,
        vatRate: 20,
        images: [],
      },
    ]);
    expect(made.applied, JSON.stringify(made.failed)).toBe(1);
  }, 120_000);

  it("refuses a mapping that does not fit Hepsiburada's lists, field by field", async () => {
    const res = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: {
        erpCategory,
        categoryId: leafId,
        brandId: "Koton",
        attributes: [{ attributeId: "00000MU", valueId: "Deri" }],
      },
    });
    expect(res.status).toBe(400);
    const text = JSON.stringify(res.body);
    expect(text).toContain("Zorunlu özellik için pazaryerinin listesinden bir değer seçin: Renk");
    expect(text).toContain("Garanti Süresi (Ay)");
    expect(text).toContain("Materyal özelliği için pazaryerinin listesindeki bir değeri seçin");
    expect(text).not.toContain("marka listesinde bu marka yok");
    const none = await call(server.app, "POST", `/api/channels/${channelId}/listing`, { token });
    expect(none.status).toBe(400);
  });

  it("saves the mapping with the typed brand, and gives the channel its listing job", async () => {
    const res = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: {
        erpCategory,
        categoryId: leafId,
        brandId: "Koton",
        attributes: [
          { attributeId: "renk_variant_property", valueId: "Siyah" },
          { attributeId: "GarantiSuresi", value: "24" },
          { attributeId: "00000MU", valueId: "Pamuk" },
        ],
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      erpCategory,
      categoryId: leafId,
      brandId: "Koton",
      brandName: "Koton",
      attributes: expect.arrayContaining([
        { attributeId: "renk_variant_property", name: "Renk", valueId: "Siyah", value: "Siyah" },
        { attributeId: "GarantiSuresi", name: "Garanti Süresi (Ay)", value: "24" },
      ]),
    });
    const jobs = await call(
      server.app,
      "GET",
      `/api/Job/type-filter/ProductIntegration?channel=${channelId}`,
      { token },
    );
    expect(jobs.body.data).toEqual([
      expect.objectContaining({ channel_id: channelId, name: "Ürün Aktarımı" }),
    ]);
  });

  it("opens the unlisted products on Hepsiburada; the refused one is a failed task with Hepsiburada's words", async () => {
    const { run, failed } = await runChannelListing(server, token, channelId);
    expect(run.status, JSON.stringify(run)).toBe("PartiallyFailed");
    expect(failed).toEqual([
      expect.objectContaining({
        entityKey: taken,
        errorType: "validation",
        message: expect.stringContaining("Bu barkod başka bir ürününüzde kullanılıyor"),
      }),
    ]);
    expect(run.counts).toMatchObject({ written: toList.length - 1, failed: 1 });
    const opened = await openCompanyConnectors(server.ctx, companyId, new CallCounter(), {}, channelId);
    const found = await opened.shop.findProductsBySku(toList.map((v) => v.sku));
    expect(toList.filter((v) => v.sku !== taken).every((v) => found.has(v.sku))).toBe(true);
    expect(found.has(taken)).toBe(false);
  }, 180_000);

  it("refuses another company's channel id", async () => {
    const seen = await listingStatusesForStranger(
      server.app,
      { channelId, leafId },
      { erpCategory, brandId: "Koton" },
    );
    expect(Object.keys(seen).length).toBeGreaterThanOrEqual(6);
    expect(Object.entries(seen).filter(([, status]) => status !== 404)).toEqual([]);
  }, 60_000);
});
