import { describe, expect, it } from "vitest";
import { call, registerAndLogin } from "./harness.ts";
import {
  connectSandboxChannel,
  expectListingRefusesOne,
  holdFirstBarcode,
  unlistedCategory,
} from "./support/channel-listing.ts";
import { listeningServer } from "./support/listening-server.ts";

/**
 * Issue 37, product listing: a company on the Mikro sandbox with the Trendyol sandbox as a channel maps
 * an ERP category to a Trendyol category (checked against Trendyol's own category, brand and attribute
 * lists), and the channel's listing run opens the ERP's products of that category that Trendyol does not
 * have. A product whose barcode Trendyol already holds under another listing is refused: a failed task
 * with Trendyol's reason. Another company's ids are not found.
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

  it("connects Mikro, IKAS and the Trendyol sandbox and reads Trendyol's own lists", async () => {
    ({ token, companyId, channelId } = await connectSandboxChannel(server.app, "trendyol"));

    const cats = await call(server.app, "GET", `/api/channels/${channelId}/categories`, { token });
    expect(cats.status).toBe(200);
    const leaf = (
      cats.body.data as Array<{ id: string; name: string; leaf: boolean; parentId: string | null }>
    ).find((c) => c.leaf && c.parentId !== null)!;
    leafId = leaf.id;
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
    const brands = await call(server.app, "GET", `/api/channels/${channelId}/brands?name=Koton`, { token });
    expect(brands.body.data).toEqual([{ id: expect.any(String), name: "Koton" }]);
    brandId = brands.body.data[0].id;
  }, 180_000);

  it("finds an ERP category with products Trendyol does not have yet", async () => {
    const unlisted = await unlistedCategory(server.ctx, companyId, channelId);
    erpCategory = unlisted.category;
    toList = unlisted.list;
    // Trendyol already holds one of their barcodes under another listing of the seller.
    taken = await holdFirstBarcode(unlisted, {
      brandId,
      categoryId: leafId,
      attributes: [{ attributeId: "47", valueId: "101" }],
    });
  }, 120_000);

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
    await expectListingRefusesOne(
      server,
      { token, companyId, channelId },
      toList,
      taken,
      "Bu barkod ile ürün zaten var",
    );
  }, 180_000);

  it("refuses another company's channel and mapping ids", async () => {
    const b = await registerAndLogin(server.app);
    const other = b.token;
    const paths: Array<["GET" | "POST" | "DELETE", string, unknown?]> = [
      ["GET", `/api/channels/${channelId}/categories`],
      ["GET", `/api/channels/${channelId}/categories/${leafId}/attributes`],
      ["GET", `/api/channels/${channelId}/brands`],
      ["GET", `/api/channels/${channelId}/category-mappings`],
      [
        "POST",
        `/api/channels/${channelId}/category-mappings`,
        { erpCategory, categoryId: leafId, brandId, attributes: [] },
      ],
      ["DELETE", `/api/channels/${channelId}/category-mappings/${mappingId}`],
      ["POST", `/api/channels/${channelId}/listing`],
    ];
    for (const [method, path, body] of paths) {
      const res = await call(server.app, method, path, { token: other, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const still = await call(server.app, "GET", `/api/channels/${channelId}/category-mappings`, { token });
    expect(still.body.data).toHaveLength(1);
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
