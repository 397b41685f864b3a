/**
 * Issue 37, product listing: a product a marketplace accepted is reviewed before it shows in the
 * seller's list (Trendyol and Hepsiburada approve new products), and sending it again meanwhile is
 * refused as a taken barcode. The listing flow keeps what it sent in the channel's ledger and leaves it
 * to the review for `LISTING_REVIEW_MS`; a product the marketplace refused is sent again at once.
 * Scripted marketplace (whose list stays empty: everything in review) and ERP, on a real database.
 */
import {
  type BatchResult,
  ConnectorError,
  type ErpConnector,
  type ListingItem,
  type Product,
  type ShopConnector,
} from "@ep/connectors";
import {
  channelListing,
  DEFAULT_MAPPINGS,
  engineSchema,
  type FlowContext,
  LISTING_REVIEW_MS,
  RunTally,
  SyncLedger,
} from "@ep/engine";
import { describe, expect, it } from "vitest";
import { moduleDatabase } from "../support/module-database.ts";

const store = moduleDatabase();
// The ledger stamps its rows with the real time: the runs are timed from it.
const NOW = new Date();

const card = (sku: string): Product => ({
  sku,
  name: `Tişört ${sku}`,
  categoryPath: ["Giyim", "Tişört"],
  vatRate: 20,
  unit: "Adet",
  variants: [{ sku, barcodes: [`869${sku}`], options: {} }],
  images: [],
  isActive: true,
});

const erp = {
  descriptor: { system: "mikro", name: "Mikro" },
  listProducts: async () => ({ items: [card("A1"), card("A2"), card("A3")] }),
  listPriceGroups: async () => [{ id: "1", name: "Perakende", isDefault: true }],
  listPrices: async () => ({
    items: ["A1", "A2", "A3"].map((sku) => ({ sku, priceGroup: "1", amount: 120, vatIncluded: true })),
  }),
} as unknown as ErpConnector;

/** A marketplace that accepts every item but `refuse` and lists nothing yet (all in review). */
function marketplace(refuse: Set<string>) {
  const sent: string[][] = [];
  const shop = {
    descriptor: { system: "trendyol", name: "Trendyol" },
    findProductsBySku: async () => new Map(),
    listBrands: async () => [],
    createListings: async (items: ListingItem[]): Promise<BatchResult> => {
      sent.push(items.map((i) => i.sku));
      const failed = items
        .filter((i) => refuse.has(i.sku))
        .map((i) => ({
          key: i.sku,
          error: new ConnectorError("refused", { reason: "validation", systemMessage: "Görsel eksik" }),
        }));
      return { applied: items.length - failed.length, failed, calls: 1 };
    },
  } as unknown as ShopConnector;
  return { shop, sent };
}

async function channelOf() {
  const { companyId } = await store.company();
  const [row] = await store.db
    .insert(engineSchema.connections)
    .values({ companyId, kind: "channel", systemType: 0, systemKey: "trendyol", credentialsSealed: "-" })
    .returning({ id: engineSchema.connections.id });
  const connectionId = row!.id;
  await store.db.insert(engineSchema.channelCategoryMappings).values({
    companyId,
    connectionId,
    erpCategory: "Giyim > Tişört",
    categoryId: "411",
    categoryName: "Tişört",
    brandId: "1",
    brandName: "Koton",
  });
  return { companyId, connectionId };
}

function run(c: { companyId: number; connectionId: number }, shop: ShopConnector, at: Date): FlowContext {
  return {
    db: store.db,
    companyId: c.companyId,
    runId: 0,
    job: { id: 0, type: "ProductIntegration", name: "Ürün Aktarımı", options: {} },
    erp,
    shop,
    erpConnectionId: 0,
    shopConnectionId: c.connectionId,
    channel: { connectionId: c.connectionId, system: "trendyol", name: "Trendyol", settings: {} },
    ledger: new SyncLedger(store.db, c.connectionId, c.companyId),
    mappings: { ...DEFAULT_MAPPINGS },
    onlyKeys: null,
    trigger: "manual",
    now: () => at,
    tally: new RunTally(),
    signal: new AbortController().signal,
    workerId: "test",
    lockMs: 60_000,
  } as FlowContext;
}

describe("a listed product under the marketplace's review", () => {
  it("is not sent again while reviewed; a refused one is, and a review past its time is sent again", async () => {
    const c = await channelOf();
    const { shop, sent } = marketplace(new Set(["A3"]));
    await channelListing(run(c, shop, NOW));
    expect(sent).toEqual([["A1", "A2", "A3"]]);

    // An hour later the marketplace still lists none of them: only the refused one goes again.
    const second = run(c, shop, new Date(NOW.getTime() + 60 * 60_000));
    await channelListing(second);
    expect(sent[1]).toEqual(["A3"]);
    expect(second.tally.lines.join(" ")).toContain("2 ürün pazaryerine gönderildi ve onay bekliyor");

    // Past the review time, with the products still not listed, they are sent again.
    await channelListing(run(c, shop, new Date(NOW.getTime() + LISTING_REVIEW_MS + 60_000)));
    expect(sent[2]).toEqual(["A1", "A2", "A3"]);
  });
});
