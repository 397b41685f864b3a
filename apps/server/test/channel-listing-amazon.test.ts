import { CallCounter, hasListing } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { openCompanyConnectors } from "../src/modules/connections/connector-factory.ts";
import { call, registerAndLogin } from "./harness.ts";
import { endedRun, unlistedCategory } from "./support/channel-listing.ts";
import { listeningServer } from "./support/listening-server.ts";

/**
 * Issue 37, product listing on Amazon Türkiye: a company with the Amazon sandbox as a channel maps an ERP
 * category to an Amazon product type (the category), with the brand written as free text and the type's
 * required attributes from its schema; the listing run opens the ERP's products of that category that
 * Amazon does not have, one putListingsItem each. A product whose EAN another SKU of the seller already
 * carries is refused: a failed task with Amazon's issue message. Another company's channel is not found.
 */
const server = listeningServer("listing-amazon");

/** The HOME type's required attributes the mapping gives (the rest the listing fills from the product). */
const HOME_ATTRIBUTES = [
  { attributeId: "bullet_point", value: "Dayanıklı, kolay temizlenir" },
  { attributeId: "country_of_origin", valueId: "TR" },
  { attributeId: "supplier_declared_dg_hz_regulation", valueId: "not_applicable" },
  { attributeId: "number_of_items", value: "1" },
];

describe("listing the ERP's products on an Amazon Türkiye channel", () => {
  let token = "";
  let companyId = 0;
  let channelId = 0;
  let erpCategory = "";
  let toList: Array<{ sku: string; barcode: string }> = [];
  let taken = "";

  it("connects the Amazon sandbox and reads its product types and a type's attributes", async () => {
    const a = await registerAndLogin(server.app);
    token = a.token;
    companyId = a.account.company.id;
    const res = await call(server.app, "POST", "/api/sandbox/connect", {
      token,
      body: { channels: ["amazon"] },
    });
    expect(res.status).toBe(200);
    channelId = (await call(server.app, "GET", "/api/channels", { token })).body.data[0].id;

    const cats = await call(server.app, "GET", `/api/channels/${channelId}/categories`, { token });
    expect(cats.status).toBe(200);
    expect(cats.body.data).toContainEqual({ id: "HOME", name: "Ev", parentId: null, leaf: true });
    const attrs = await call(server.app, "GET", `/api/channels/${channelId}/categories/HOME/attributes`, {
      token,
    });
    expect(attrs.status).toBe(200);
    const ids = (attrs.body.data as Array<{ id: string; required: boolean }>)
      .filter((x) => x.required)
      .map((x) => x.id);
    expect(ids.sort()).toEqual(HOME_ATTRIBUTES.map((x) => x.attributeId).sort());
    // No brand list at Amazon: a name asked for is the brand as written.
    const brands = await call(server.app, "GET", `/api/channels/${channelId}/brands?name=Koton`, { token });
    expect(brands.body.data).toEqual([{ id: "Koton", name: "Koton" }]);
  }, 180_000);

  it("finds an ERP category with products Amazon does not have; another SKU holds one's EAN", async () => {
    const { opened, category, list } = await unlistedCategory(server.ctx, companyId, channelId);
    erpCategory = category;
    toList = list;
    taken = list[0]!.sku;
    const shop = opened.shop;
    if (!hasListing(shop)) throw new Error("Amazon lists products");
    const made = await shop.createListings([
      {
        sku: `OTHER-${list[0]!.barcode}`,
        barcode: list[0]!.barcode,
        modelKey: "OTHER",
        title: "Başka bir ürün",
        description: "Başka bir ürün",
        brandId: "Başka",
        categoryId: "HOME",
        attributes: HOME_ATTRIBUTES,
        quantity: 0,
        salePrice: 10,
        vatRate: 20,
        images: [],
      },
    ]);
    expect(made).toMatchObject({ applied: 1, failed: [] });
  }, 120_000);

  it("refuses a mapping that misses the type's required attributes or leaves its value list", async () => {
    const res = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: {
        erpCategory,
        categoryId: "HOME",
        brandId: "Koton",
        attributes: [{ attributeId: "country_of_origin", valueId: "XX" }],
      },
    });
    expect(res.status).toBe(400);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("marka listesinde bu marka yok");
    expect(text).toContain("Madde işareti");
    expect(text).toContain("Menşe ülke");
  });

  it("saves the mapping with the brand as written, and opens the unlisted products on Amazon", async () => {
    const saved = await call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: { erpCategory, categoryId: "HOME", brandId: "Koton", attributes: HOME_ATTRIBUTES },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ categoryName: "Ev", brandId: "Koton", brandName: "Koton" });
    expect(saved.body.data.attributes).toContainEqual({
      attributeId: "country_of_origin",
      name: "Menşe ülke",
      valueId: "TR",
      value: "Türkiye",
    });

    const started = await call(server.app, "POST", `/api/channels/${channelId}/listing`, { token });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const run = await endedRun(server.app, token, started.body.data.runId);
    expect(run.status, JSON.stringify(run)).toBe("PartiallyFailed");
    const failed = await call(
      server.app,
      "GET",
      `/api/JobErrorReport/1/50/ProductIntegration?channel=${channelId}`,
      { token },
    );
    expect(failed.body.data.dataList).toEqual([
      expect.objectContaining({
        entityKey: taken,
        errorType: "validation",
        message: expect.stringContaining(`EAN ${toList[0]!.barcode}`),
      }),
    ]);
    expect(run.counts).toMatchObject({ written: toList.length - 1, failed: 1 });
    const opened = await openCompanyConnectors(server.ctx, companyId, new CallCounter(), {}, channelId);
    const found = await opened.shop.findProductsBySku(toList.map((v) => v.sku));
    expect(toList.filter((v) => v.sku !== taken).every((v) => found.get(v.sku)?.variantId === "HOME")).toBe(
      true,
    );
    expect(found.has(taken)).toBe(false);
    // A second run sends only the refused one again (the others are on Amazon now): refused again, alone.
    const again = await call(server.app, "POST", `/api/channels/${channelId}/listing`, { token });
    const second = await endedRun(server.app, token, again.body.data.runId);
    expect(second.status).toBe("PartiallyFailed");
    expect(second.counts).toMatchObject({ changed: 1, written: 0, failed: 1 });
  }, 180_000);

  it("refuses another company's Amazon channel", async () => {
    const other = (await registerAndLogin(server.app)).token;
    for (const [method, path, body] of [
      ["GET", `/api/channels/${channelId}/categories`],
      ["GET", `/api/channels/${channelId}/categories/HOME/attributes`],
      ["GET", `/api/channels/${channelId}/brands?name=Koton`],
      [
        "POST",
        `/api/channels/${channelId}/category-mappings`,
        { erpCategory, categoryId: "HOME", brandId: "Koton", attributes: HOME_ATTRIBUTES },
      ],
      ["POST", `/api/channels/${channelId}/listing`],
    ] as Array<["GET" | "POST", string, unknown?]>) {
      const res = await call(server.app, method, path, { token: other, ...(body ? { body } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
  }, 60_000);
});
