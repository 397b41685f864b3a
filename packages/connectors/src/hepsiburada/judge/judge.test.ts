/** The Hepsiburada judge refuses what the portal's OpenAPI/Swagger models do not allow. */

import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/recorder";
import { applyRuntimeRules } from "../../testing/runtime-rules";
import { judgeHepsiburadaRequest } from "./requests";
import { hepsiburadaRules } from "./rules";

const M = "6fc6d90d-ee1d-4372-b3a6-264b1275e9ff";
const auth = `Basic ${Buffer.from(`${M}:Hb7kQ2mX9pLz`).toString("base64")}`;
const req = (over: Partial<RecordedRequest>): RecordedRequest => ({
  at: 0,
  method: "POST",
  path: `/listing/listings/merchantid/${M}/stock-uploads`,
  query: {},
  headers: { authorization: auth, "user-agent": "dev_user" },
  body: [{ merchantSku: "STK-1", availableStock: 3 }],
  ...over,
});
const problems = (r: RecordedRequest) => judgeHepsiburadaRequest(r)?.problems ?? ["unknown"];

describe("Hepsiburada judge", () => {
  it("accepts the StockUploadRequestModel", () => {
    expect(problems(req({}))).toEqual([]);
  });

  it("refuses a property the model does not list, a wrong type and an empty upload", () => {
    expect(problems(req({ body: [{ merchantSku: "S", stock: 3 }] }))).toEqual([
      "[0].stock is not a property of the model",
    ]);
    expect(problems(req({ body: [{ merchantSku: "S", availableStock: "3" }] }))).toEqual([
      "[0].availableStock has the wrong type",
    ]);
    expect(problems(req({ body: [] }))).toEqual(["body must not be empty"]);
  });

  it("requires offset and limit on listings, and limit ≤ 100 on paid orders", () => {
    expect(
      problems(req({ method: "GET", path: `/listing/listings/merchantid/${M}`, body: undefined })),
    ).toEqual(["offset required", "limit required"]);
    const paid = req({
      method: "GET",
      path: `/oms/orders/merchantid/${M}`,
      query: { limit: "200" },
      body: undefined,
    });
    expect(problems(paid)).toEqual(["limit must be an integer 1..100"]);
  });

  it("a package request needs line ids and quantities", () => {
    const pkg = req({ path: `/oms/packages/merchantid/${M}`, body: { lineItemRequests: [{ id: "l1" }] } });
    expect(problems(pkg)).toEqual(["lineItemRequests[0] needs id and quantity"]);
  });

  it("the rules: no User-Agent, an ISO order date, 51 SKUs; the cancelled-list date only on the live side", () => {
    const rules = hepsiburadaRules();
    const ids = (r: RecordedRequest, side?: string) =>
      applyRuntimeRules(rules, r, [], { side }).map((v) => v.rule);
    expect(ids(req({ headers: { authorization: auth } }))).toEqual(["hepsiburada.user-agent"]);
    const iso = req({
      method: "GET",
      path: `/oms/orders/merchantid/${M}`,
      query: { limit: "100", begindate: "2026-11-01T00:00:00Z" },
      body: undefined,
    });
    expect(ids(iso)).toEqual(["hepsiburada.order-date-format"]);
    const skus = Array.from({ length: 51 }, (_, i) => `S${i}`).join(",");
    const listing = req({
      method: "GET",
      path: `/listing/listings/merchantid/${M}`,
      query: { offset: "0", limit: "51", merchantSkuList: skus },
      body: undefined,
    });
    expect(ids(listing)).toEqual(["hepsiburada.listing-sku-list-50"]);
    const cancelled = req({
      method: "GET",
      path: `/oms/orders/merchantid/${M}/cancelled`,
      query: { limit: "50", begindate: "2026-11-01 00:00" },
      body: undefined,
    });
    expect(ids(cancelled, "live")).toEqual(["hepsiburada.cancelled-no-date-filter"]);
    expect(ids(cancelled, "openapi")).toEqual([]);
  });
});
