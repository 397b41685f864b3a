import { CallCounter, type N11Emulator } from "@ep/connectors";
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
 * Issue 37, product listing on n11: a company on the Mikro sandbox with the n11 sandbox as a channel maps
 * an ERP category onto an n11 leaf category (n11's own category and attribute lists; the brand is free
 * text, sent as n11's `Marka` attribute), and the channel's listing run opens the ERP's products of that
 * category that n11 does not have, in product-create tasks read back through task-details. A product
 * whose stock code n11 already holds in its own warehouse (n11depom, not in the seller's product list)
 * is refused: a failed task with n11's reason. Another company's ids are not found.
 */
const server = listeningServer("listing-n11");

describe("listing the ERP's products on an n11 channel", () => {
  let token = "";
  let companyId = 0;
  let channelId = 0;
  let leafId = "";
  let erpCategory = "";
  let toList: Array<{ sku: string; barcode: string }> = [];
  let taken = "";
  let mappingId = 0;
  /** The mapping of the chosen ERP category onto the n11 leaf, the brand typed as "Koton". */
  const saveMapping = (attributes: Array<{ attributeId: string; valueId: string }>) =>
    call(server.app, "POST", `/api/channels/${channelId}/category-mappings`, {
      token,
      body: { erpCategory, categoryId: leafId, brandId: "Koton", attributes },
    });

  it("connects the n11 sandbox and reads n11's own lists; the brand is typed, not listed", async () => {
    ({ token, companyId, channelId, leafId } = await connectListingChannel(server.app, "n11"));
    const attrs = await call(
      server.app,
      "GET",
      `/api/channels/${channelId}/categories/${leafId}/attributes`,
      {
        token,
      },
    );
    const names = (attrs.body.data as Array<{ name: string }>).map((x) => x.name);
    expect(names).toEqual(["Renk", "Beden"]);
    expect(attrs.body.data[0]).toMatchObject({
      required: true,
      values: expect.arrayContaining([{ id: "2000", name: "Siyah" }]),
    });
    // The mapping form types the brand where the marketplace keeps no brand list.
    const profile = await call(server.app, "GET", `/api/channels/${channelId}/listing-profile`, { token });
    expect(profile.body.data).toEqual({ freeTextBrand: true });
    const brands = await call(server.app, "GET", `/api/channels/${channelId}/brands?name=Koton`, { token });
    expect(brands.body.data).toEqual([{ id: "Koton", name: "Koton" }]);
  }, 180_000);

  it("finds an ERP category with products n11 does not have yet; n11depom holds one of their codes", async () => {
    // n11 refuses titles under 15 characters: the category chosen has none.
    const found = await largestUnlistedCategory(server.ctx, companyId, channelId, (p) => p.name.length >= 15);
    expect(found.list.length).toBeGreaterThanOrEqual(2);
    erpCategory = found.category;
    toList = found.list;
    taken = toList[0]!.sku;
    const emu = (await server.ctx.sandbox.emulatorOf("n11", companyId)) as N11Emulator;
    emu.products.push({ ...emu.products[0], stockCode: taken, sender: "N11" });
    expect((await found.shop.findProductsBySku([taken])).size).toBe(0);
  }, 120_000);

  it("refuses a mapping that does not fit n11's lists, field by field", async () => {
    const res = await saveMapping([{ attributeId: "3", valueId: "9" }]);
    expect(res.status).toBe(400);
    const text = JSON.stringify(res.body);
    expect(text).toContain("Zorunlu özellik için pazaryerinin listesinden bir değer seçin: Renk");
    expect(text).toContain("Beden özelliği için pazaryerinin listesindeki bir değeri seçin");
    const none = await call(server.app, "POST", `/api/channels/${channelId}/listing`, { token });
    expect(none.status).toBe(400);
  });

  it("saves the mapping with the typed brand and n11's names, and gives the channel its listing job", async () => {
    const res = await saveMapping([{ attributeId: "2", valueId: "2000" }]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      erpCategory,
      categoryId: leafId,
      brandId: "Koton",
      brandName: "Koton",
      attributes: [{ attributeId: "2", name: "Renk", valueId: "2000", value: "Siyah" }],
    });
    mappingId = res.body.data.id;
  });

  it("opens the unlisted products on n11; the refused one is a failed task with n11's reason", async () => {
    const { run, failed } = await runChannelListing(server, token, channelId);
    expect(run.status, JSON.stringify(run)).toBe("PartiallyFailed");
    expect(failed).toEqual([
      expect.objectContaining({
        entityKey: taken,
        errorType: "validation",
        message: expect.stringContaining(
          `Girdiğiniz ${taken} seller stock code tarafınızdan kullanılmaktadır`,
        ),
      }),
    ]);
    expect(run.counts).toMatchObject({ written: toList.length - 1, failed: 1 });
    // Every other product of the category is on n11 now under its ERP stock code, the brand as Marka.
    const emu = (await server.ctx.sandbox.emulatorOf("n11", companyId)) as N11Emulator;
    const opened = await openCompanyConnectors(server.ctx, companyId, new CallCounter(), {}, channelId);
    const found = await opened.shop.findProductsBySku(toList.map((v) => v.sku));
    expect(toList.filter((v) => v.sku !== taken).every((v) => found.has(v.sku))).toBe(true);
    const made = emu.products.find((p) => p.stockCode === toList[1]!.sku && p.sender === "SELLER");
    expect(made).toMatchObject({
      status: "InCatalogApproval",
      categoryId: Number(leafId),
      shipmentTemplate: "Standart Kargo",
      attributes: [
        { id: 1, valueId: 1000, customValue: null },
        { id: 2, valueId: 2000, customValue: null },
      ],
    });
    // A second run sends only the refused one again: it fails again, alone.
    const { run: second } = await runChannelListing(server, token, channelId);
    expect(second.status).toBe("PartiallyFailed");
    expect(second.counts).toMatchObject({ changed: 1, written: 0, failed: 1 });
  }, 180_000);

  it("refuses another company's channel and mapping ids", async () => {
    const seen = await listingStatusesForStranger(
      server.app,
      { channelId, leafId, mappingId },
      { erpCategory, brandId: "Koton" },
    );
    expect(Object.keys(seen).length).toBeGreaterThanOrEqual(6);
    expect(Object.entries(seen).filter(([, status]) => status !== 404)).toEqual([]);
    const still = await call(server.app, "GET", `/api/channels/${channelId}/category-mappings`, { token });
    expect(still.body.data).toHaveLength(1);
  }, 60_000);
});
