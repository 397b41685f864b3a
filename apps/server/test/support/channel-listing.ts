import { CallCounter, type Product } from "@ep/connectors";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { openCompanyConnectors } from "../../src/modules/connections/connector-factory.ts";
import type { ServerContext } from "../../src/server-context.ts";
import { call } from "../harness.ts";

/** What the marketplace listing suites share: waiting for a run, and the ERP category to list. */

/** The run's report once it has ended (any status but Queued / Running). */
export async function endedRun(app: FastifyInstance, token: string, runId: number) {
  for (let i = 0; i < 1200; i++) {
    const res = await call(app, "GET", `/api/JobHistory/report/${runId}`, { token });
    const run = res.body.data;
    if (run && run.status !== "Queued" && run.status !== "Running") return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not end`);
}

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
