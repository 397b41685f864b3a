import { CallCounter, hasListing, type ListingItem, type Product } from "@ep/connectors";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { openCompanyConnectors } from "../../src/modules/connections/connector-factory.ts";
import type { ServerContext } from "../../src/server-context.ts";
import { call, registerAndLogin } from "../harness.ts";
import { endedRun } from "./runs.ts";

/** What the marketplace listing suites share: the channel, the ERP category to list, the runs. */

/**
 * The ERP category with the most variants (with a barcode) the channel does not have yet, at least two,
 * with the company's opened connectors.
 */
export async function unlistedCategory(ctx: ServerContext, companyId: number, channelId: number) {
  const opened = await openCompanyConnectors(ctx, companyId, new CallCounter(), {}, channelId);
  const products: Product[] = [];
  let pageToken: string | undefined;
  do {
    const page = await opened.erp.listProducts({ pageToken });
    products.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  const variants = products.flatMap((p) =>
    p.variants.map((v) => ({
      category: p.categoryPath.join(" > "),
      sku: v.sku,
      barcode: v.barcodes[0] ?? "",
    })),
  );
  const listed = await opened.shop.findProductsBySku(variants.map((v) => v.sku));
  const byCategory = new Map<string, typeof variants>();
  for (const v of variants.filter((x) => !listed.has(x.sku) && x.barcode))
    byCategory.set(v.category, [...(byCategory.get(v.category) ?? []), v]);
  const [category, list] = [...byCategory].sort((x, y) => y[1].length - x[1].length)[0]!;
  expect(list.length).toBeGreaterThanOrEqual(2);
  return { opened, category, list };
}

/**
 * Opens, under another SKU of the seller, a listing carrying the first unlisted product's barcode: the
 * marketplace then refuses that product as a taken barcode. Returns that product's SKU.
 */
export async function holdFirstBarcode(
  unlisted: Awaited<ReturnType<typeof unlistedCategory>>,
  as: Pick<ListingItem, "brandId" | "categoryId" | "attributes">,
): Promise<string> {
  const shop = unlisted.opened.shop;
  if (!hasListing(shop)) throw new Error(`${shop.descriptor.name} lists no products`);
  const first = unlisted.list[0]!;
  const made = await shop.createListings([
    {
      sku: `OTHER-${first.barcode}`,
      barcode: first.barcode,
      modelKey: "OTHER",
      title: "Başka bir ürün",
      description: "Başka bir ürün",
      quantity: 0,
      salePrice: 10,
      vatRate: 20,
      images: [],
      ...as,
    },
  ]);
  expect(made).toMatchObject({ applied: 1, failed: [] });
  return first.sku;
}

/** A new company on the sandboxes with the marketplace's sandbox as its one channel. */
export async function connectSandboxChannel(app: FastifyInstance, system: string) {
  const a = await registerAndLogin(app);
  const res = await call(app, "POST", "/api/sandbox/connect", {
    token: a.token,
    body: { channels: [system] },
  });
  expect(res.status).toBe(200);
  const channelId = (await call(app, "GET", "/api/channels", { token: a.token })).body.data[0].id as number;
  return { token: a.token, companyId: a.account.company.id as number, channelId };
}

/**
 * Runs the channel's listing twice: the first opens every unlisted product but `taken`, which fails as one
 * failed task whose message holds `says` (the marketplace's words); the second sends only that one again.
 * Returns what the marketplace then holds of `list`, by SKU.
 */
export async function expectListingRefusesOne(
  server: { app: FastifyInstance; ctx: ServerContext },
  s: { token: string; companyId: number; channelId: number },
  list: Array<{ sku: string }>,
  taken: string,
  says: string,
) {
  const { app } = server;
  const started = await call(app, "POST", `/api/channels/${s.channelId}/listing`, { token: s.token });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const run = await endedRun(app, s.token, started.body.data.runId);
  expect(run.status, JSON.stringify(run)).toBe("PartiallyFailed");
  const failed = await call(
    app,
    "GET",
    `/api/JobErrorReport/1/50/ProductIntegration?channel=${s.channelId}`,
    { token: s.token },
  );
  expect(failed.body.data.dataList).toEqual([
    expect.objectContaining({
      entityKey: taken,
      errorType: "validation",
      message: expect.stringContaining(says),
    }),
  ]);
  expect(run.counts).toMatchObject({ written: list.length - 1, failed: 1 });
  // Every other product is on the marketplace now, under its ERP stock code.
  const opened = await openCompanyConnectors(server.ctx, s.companyId, new CallCounter(), {}, s.channelId);
  const found = await opened.shop.findProductsBySku(list.map((v) => v.sku));
  expect(list.filter((v) => v.sku !== taken).every((v) => found.has(v.sku))).toBe(true);
  expect(found.has(taken)).toBe(false);
  // The second run sends only the refused one again (the others are listed now): it fails again, alone.
  const again = await call(app, "POST", `/api/channels/${s.channelId}/listing`, { token: s.token });
  const second = await endedRun(app, s.token, again.body.data.runId);
  expect(second.status).toBe("PartiallyFailed");
  expect(second.counts).toMatchObject({ changed: 1, written: 0, failed: 1 });
  return found;
}
