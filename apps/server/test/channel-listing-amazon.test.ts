import { describe, expect, it } from "vitest";
import { call, registerAndLogin } from "./harness.ts";
import {
  connectListingChannel,
  expectListingRefusesOne,
  holdFirstBarcode,
  largestUnlistedCategory,
} from "./support/channel-listing.ts";
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
    ({ token, companyId, channelId } = await connectListingChannel(server.app, "amazon"));

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
    // The mapping form types the brand where the marketplace keeps no brand list.
    const profile = await call(server.app, "GET", `/api/channels/${channelId}/listing-profile`, { token });
    expect(profile.body.data).toEqual({ freeTextBrand: true });
    const brands = await call(server.app, "GET", `/api/channels/${channelId}/brands?name=Koton`, { token });
    expect(brands.body.data).toEqual([{ id: "Koton", name: "Koton" }]);
  }, 180_000);

  it("finds an ERP category with products Amazon does not have; another SKU holds one's EAN", async () => {
    const unlisted = await largestUnlistedCategory(server.ctx, companyId, channelId);
    expect(unlisted.list.length).toBeGreaterThanOrEqual(2);
    erpCategory = unlisted.category;
    toList = unlisted.list;
    taken = await holdFirstBarcode(unlisted, {
      brandId: "Başka",
      categoryId: "HOME",
      attributes: HOME_ATTRIBUTES,
    });
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

    const found = await expectListingRefusesOne(
      server,
      { token, companyId, channelId },
      toList,
      taken,
      `EAN ${toList[0]!.barcode}`,
    );
    // Listed under the mapped product type (what the stock and price feeds then name).
    expect(toList.filter((v) => v.sku !== taken).every((v) => found.get(v.sku)?.variantId === "HOME")).toBe(
      true,
    );
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
