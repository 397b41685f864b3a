import { CallCounter, hasListing, type ListingItem, type Product } from "@ep/connectors";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { openCompanyConnectors } from "../../src/modules/connections/connector-factory.ts";
import type { ServerContext } from "../../src/server-context.ts";
import { waitForRun } from "../engine/engine-harness.ts";
import { call, registerAndLogin } from "../harness.ts";

/**
 * For the channel listing suites: a new company on the sandboxes with `system`'s sandbox as its channel,
 * and the first leaf (under a parent) of the marketplace's category list.
 */
export async function connectListingChannel(app: FastifyInstance, system: string) {
  const { token, account } = await registerAndLogin(app);
  const res = await call(app, "POST", "/api/sandbox/connect", { token, body: { channels: [system] } });
  if (res.status !== 200) throw new Error(`sandbox connect: ${JSON.stringify(res.body)}`);
  const channelId = (await call(app, "GET", "/api/channels", { token })).body.data[0].id as number;
  const cats = await call(app, "GET", `/api/channels/${channelId}/categories`, { token });
  if (cats.status !== 200) throw new Error(`categories: ${JSON.stringify(cats.body)}`);
  const leaf = (cats.body.data as Array<{ id: string; leaf: boolean; parentId: string | null }>).find(
    (c) => c.leaf && c.parentId !== null,
  );
  // Amazon's product types are a flat list: no leaf under a parent.
  return { token, companyId: account.company.id as number, channelId, leafId: leaf?.id ?? "" };
}

/** The company's connectors opened on the channel, and every card the ERP lists. */
export async function erpProductsOf(ctx: ServerContext, companyId: number, channelId: number) {
  const opened = await openCompanyConnectors(ctx, companyId, new CallCounter(), {}, channelId);
  const products: Product[] = [];
  let pageToken: string | undefined;
  do {
    const page = await opened.erp.listProducts({ pageToken });
    products.push(...page.items);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return { opened, products };
}

/**
 * For the channel listing suites: the ERP category with the most active variants (each with a barcode)
 * the marketplace channel does not have yet, with the company's connectors opened on that channel.
 * `fits` leaves out categories holding an active product the marketplace would refuse anyway (n11's
 * titles under 15 characters).
 */
export async function largestUnlistedCategory(
  ctx: ServerContext,
  companyId: number,
  channelId: number,
  fits: (p: Product) => boolean = () => true,
) {
  const { opened, products } = await erpProductsOf(ctx, companyId, channelId);
  const variants = products
    .filter((p) => p.isActive)
    .flatMap((p) =>
      p.variants.map((v) => ({
        category: p.categoryPath.join(" > "),
        sku: v.sku,
        barcode: v.barcodes[0] ?? "",
      })),
    );
  const unfit = new Set(
    products.filter((p) => p.isActive && !fits(p)).map((p) => p.categoryPath.join(" > ")),
  );
  const listed = await opened.shop.findProductsBySku(variants.map((v) => v.sku));
  const byCategory = new Map<string, typeof variants>();
  for (const v of variants)
    if (!listed.has(v.sku) && v.barcode && !unfit.has(v.category))
      byCategory.set(v.category, [...(byCategory.get(v.category) ?? []), v]);
  const [category, list] = [...byCategory].sort((x, y) => y[1].length - x[1].length)[0] ?? ["", []];
  return { category, list, shop: opened.shop };
}

/** Starts the channel's listing run, waits for it, and answers it with its failed tasks. */
export async function runChannelListing(server: { app: FastifyInstance }, token: string, channelId: number) {
  const started = await call(server.app, "POST", `/api/channels/${channelId}/listing`, { token });
  if (started.status !== 200) throw new Error(`listing: ${JSON.stringify(started.body)}`);
  const run = await waitForRun(server, token, started.body.data.runId, 120_000);
  const failed = await call(
    server.app,
    "GET",
    `/api/JobErrorReport/1/50/ProductIntegration?channel=${channelId}`,
    { token },
  );
  const rows = failed.body.data.dataList as Array<{ entityKey: string; errorType: string; message: string }>;
  return { run, failed: rows };
}

/**
 * What a user of another company gets from every listing route of the channel (`mappingId`: the delete
 * route too): the status by "METHOD path".
 */
export async function listingStatusesForStranger(
  app: FastifyInstance,
  ids: { channelId: number; leafId: string; mappingId?: number },
  mapping: { erpCategory: string; brandId: string },
): Promise<Record<string, number>> {
  const other = (await registerAndLogin(app)).token;
  const base = `/api/channels/${ids.channelId}`;
  const paths: Array<["GET" | "POST" | "DELETE", string, unknown?]> = [
    ["GET", `${base}/categories`],
    ["GET", `${base}/listing-profile`],
    ["GET", `${base}/categories/${ids.leafId}/attributes`],
    ["GET", `${base}/brands?name=${encodeURIComponent(mapping.brandId)}`],
    ["GET", `${base}/category-mappings`],
    ["POST", `${base}/category-mappings`, { ...mapping, categoryId: ids.leafId, attributes: [] }],
    ...(ids.mappingId
      ? [["DELETE", `${base}/category-mappings/${ids.mappingId}`] as ["DELETE", string]]
      : []),
    ["POST", `${base}/listing`],
  ];
  const seen: Record<string, number> = {};
  for (const [method, path, body] of paths)
    seen[`${method} ${path}`] = (
      await call(app, method, path, { token: other, ...(body ? { body } : {}) })
    ).status;
  return seen;
}

/**
 * Opens, under another SKU of the seller, a listing carrying the first unlisted product's barcode: the
 * marketplace then refuses that product as a taken barcode. Returns that product's SKU.
 */
export async function holdFirstBarcode(
  unlisted: Awaited<ReturnType<typeof largestUnlistedCategory>>,
  as: Pick<ListingItem, "brandId" | "categoryId" | "attributes">,
): Promise<string> {
  const shop = unlisted.shop;
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
  const { run, failed } = await runChannelListing(server, s.token, s.channelId);
  expect(run.status, JSON.stringify(run)).toBe("PartiallyFailed");
  expect(failed).toEqual([
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
  const { run: second } = await runChannelListing(server, s.token, s.channelId);
  expect(second.status).toBe("PartiallyFailed");
  expect(second.counts).toMatchObject({ changed: 1, written: 0, failed: 1 });
  return found;
}
