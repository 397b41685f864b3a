/**
 * Where the Amazon judge comes from: Amazon's own OpenAPI (Swagger 2.0) models of the Selling Partner API,
 * `amzn/selling-partner-api-models`, read in place from a fetched snapshot of the repository (a bare git
 * directory) at the commit below — never copied into this repository. Without the snapshot the judge (and
 * so the emulator and the contract tests) cannot be built, and says how to get it.
 */

import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";

export const SP_API_MODELS = {
  repository: "amzn/selling-partner-api-models",
  /** The newest snapshot read (2026-08-05). */
  commit: "34dc93fe45f37c9a0b2e56823c808f68b4f81754",
  models: {
    ordersV0: "models/orders-api-model/ordersV0.json",
    orders: "models/orders-api-model/orders_2026-01-01.json",
    feeds: "models/feeds-api-model/feeds_2021-06-30.json",
    listings: "models/listings-items-api-model/listingsItems_2021-08-01.json",
    productTypes: "models/product-type-definitions-api-model/definitionsProductTypes_2020-09-01.json",
    tokens: "models/tokens-api-model/tokens_2021-03-01.json",
    reports: "models/reports-api-model/reports_2021-06-30.json",
  },
  listingsFeed: "schemas/feeds/listings-feed-schema-v2.json",
  listingsReport: "schemas/feeds/listings-feed-processing-report-schema-v2.json",
} as const;

export type SpApiModel = keyof typeof SP_API_MODELS.models;

/** The fetched snapshot (the `fetch` tool's mirror), or `AMAZON_SP_MODELS_REPO`. */
export function spApiModelsMirror(): string {
  return process.env.AMAZON_SP_MODELS_REPO ?? "/work/.mirror/amzn+selling-partner-api-models/repo";
}

export function spApiModelsAvailable(): boolean {
  return existsSync(spApiModelsMirror());
}

const cache = new Map<string, unknown>();

/** One JSON file of the models repository at the pinned commit; fails naming the repository when absent. */
export function readSpApiFile(path: string): unknown {
  const hit = cache.get(path);
  if (hit) return hit;
  const mirror = spApiModelsMirror();
  if (!existsSync(mirror))
    throw new Error(
      `Amazon SP-API judge: the models repository ${SP_API_MODELS.repository} is not on this machine (${mirror}). ` +
        `Fetch it (fetch github:${SP_API_MODELS.repository}) or set AMAZON_SP_MODELS_REPO to its git directory.`,
    );
  const text = execFileSync("git", ["--git-dir", mirror, "show", `${SP_API_MODELS.commit}:${path}`], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const json = JSON.parse(text) as unknown;
  cache.set(path, json);
  return json;
}
