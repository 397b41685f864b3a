/** The Trendyol judge refuses what the documentation does not allow (so a green conformance line means something). */

import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/recorder";
import { applyRuntimeRules } from "../../testing/runtime-rules";
import { judgeTrendyolRequest } from "./requests";
import { trendyolRules } from "./rules";

const auth = `Basic ${Buffer.from("key:secret").toString("base64")}`;
const req = (over: Partial<RecordedRequest>): RecordedRequest => ({
  at: 0,
  method: "POST",
  path: "/integration/inventory/sellers/123/products/price-and-inventory",
  query: {},
  headers: { authorization: auth, "user-agent": "123 - SelfIntegration" },
  body: { items: [{ barcode: "8690000000001", quantity: 3 }] },
  ...over,
});
const problems = (r: RecordedRequest) => judgeTrendyolRequest(r)?.problems ?? ["unknown"];

describe("Trendyol judge", () => {
  it("accepts the documented stock/price body", () => {
    expect(problems(req({}))).toEqual([]);
  });

  it("refuses unknown fields, a negative quantity, an item without stock or price, and no Basic auth", () => {
    expect(problems(req({ body: { items: [{ barcode: "x", qty: 3 }] } }))).toEqual([
      "items[0].qty is not a field of this request",
      "items[0]. carries neither stock nor price",
    ]);
    expect(problems(req({ body: { items: [{ barcode: "x", quantity: -1 }] } }))).toEqual([
      "items[0].quantity must be a whole number ≥ 0",
    ]);
    expect(problems(req({ headers: { "user-agent": "123 - SelfIntegration" } }))).toEqual([
      "Basic Auth with API key and secret required",
    ]);
  });

  it("refuses a page size over 200 on orders, an unknown parameter, a status outside the list", () => {
    const orders = (query: Record<string, string>) =>
      problems(req({ method: "GET", path: "/integration/order/sellers/123/orders", query, body: undefined }));
    expect(orders({ size: "500" })).toEqual(["size must be an integer 1..200"]);
    expect(orders({ foo: "1" })).toEqual(["foo is not a parameter of getShipmentPackages"]);
    expect(orders({ status: "Done" })[0]).toMatch(/^status must be one of/);
  });

  it("knows no undocumented path", () => {
    expect(judgeTrendyolRequest(req({ path: "/integration/inventory/sellers/123/stock" }))).toBeUndefined();
  });

  it("the rules refuse 1,001 items, 20,001 units, a list price below the sale price and a 15-day stream", () => {
    const rules = trendyolRules();
    const ids = (r: RecordedRequest) => applyRuntimeRules(rules, r).map((v) => v.rule);
    const many = Array.from({ length: 1001 }, (_, i) => ({ barcode: `b${i}`, quantity: 1 }));
    expect(ids(req({ body: { items: many } }))).toEqual(["trendyol.batch-1000"]);
    expect(ids(req({ body: { items: [{ barcode: "b", quantity: 20_001 }] } }))).toEqual([
      "trendyol.max-quantity",
    ]);
    expect(ids(req({ body: { items: [{ barcode: "b", salePrice: 10, listPrice: 9 }] } }))).toEqual([
      "trendyol.list-price-not-below-sale",
    ]);
    const stream = req({
      method: "GET",
      path: "/integration/order/sellers/123/orders/stream",
      query: { lastModifiedStartDate: "0", lastModifiedEndDate: String(15 * 86_400_000) },
      body: undefined,
    });
    expect(ids(stream)).toEqual(["trendyol.stream-14-days"]);
    expect(ids(req({ headers: { authorization: auth, "user-agent": "999 - SelfIntegration" } }))).toEqual([
      "trendyol.user-agent",
    ]);
  });
});
