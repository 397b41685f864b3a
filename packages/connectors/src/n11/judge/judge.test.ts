/** The n11 judge refuses what the documentation does not allow (so a green conformance line means something). */

import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/recorder";
import { applyRuntimeRules } from "../../testing/runtime-rules";
import { judgeN11Request } from "./requests";
import { n11Rules } from "./rules";

const req = (over: Partial<RecordedRequest>): RecordedRequest => ({
  at: 0,
  method: "POST",
  path: "/ms/product/tasks/price-stock-update",
  query: {},
  headers: { appkey: "k", appsecret: "s" },
  body: { payload: { integrator: "EntegrasyonPaneli", skus: [{ stockCode: "STK-1", quantity: 3 }] } },
  ...over,
});
const problems = (r: RecordedRequest) => judgeN11Request(r)?.problems ?? ["unknown"];
const task = (skus: unknown[], integrator = "EntegrasyonPaneli") => ({ payload: { integrator, skus } });

describe("n11 judge", () => {
  it("accepts the documented stock task, price task and task-details query", () => {
    expect(problems(req({}))).toEqual([]);
    expect(
      problems(req({ body: task([{ stockCode: "A", listPrice: 12.5, salePrice: 10, currencyType: "TL" }]) })),
    ).toEqual([]);
    expect(
      problems(
        req({
          path: "/ms/product/task-details/page-query",
          body: { taskId: 7, pageable: { page: 0, size: 1000 } },
        }),
      ),
    ).toEqual([]);
  });

  it("refuses unknown fields, a body without payload, no integrator, a currency outside TL/USD/EUR", () => {
    expect(problems(req({ body: task([{ stockCode: "A", qty: 3 }]) }))).toEqual([
      "payload.skus[0].qty is not a field of this request",
      "payload.skus[0]. carries neither stock nor price",
    ]);
    expect(problems(req({ body: { skus: [{ stockCode: "A", quantity: 1 }] } }))).toEqual([
      "body must be { payload: { integrator, skus } }",
    ]);
    expect(problems(req({ body: task([{ stockCode: "A", quantity: 1 }], " ") }))).toEqual([
      "payload.integrator must be the integrator's name",
    ]);
    expect(
      problems(req({ body: task([{ stockCode: "A", listPrice: 1, salePrice: 1, currencyType: "TRY" }]) })),
    ).toEqual(["payload.skus[0].currencyType must be one of TL, USD, EUR"]);
    expect(problems(req({ path: "/ms/product/task-details/page-query", body: { taskId: "7" } }))).toEqual([
      "taskId must be a number",
    ]);
  });

  it("refuses an order page over 100, an unknown parameter, two statuses at once, an approval other than Picking", () => {
    const orders = (query: Record<string, string>) =>
      problems(req({ method: "GET", path: "/rest/delivery/v1/shipmentPackages", query, body: undefined }));
    expect(orders({ size: "250" })).toEqual(["size must be an integer 1..100"]);
    expect(orders({ foo: "1" })).toEqual(["foo is not a parameter of getShipmentPackages"]);
    expect(orders({ status: "Created,Picking" })[0]).toMatch(/^status must be one of/);
    const update = (body: unknown) => problems(req({ method: "PUT", path: "/rest/order/v1/update", body }));
    expect(update({ lines: [{ lineId: 1 }], status: "Shipped" })).toEqual(["status must be Picking"]);
    // One client sends { lineId: [..] }; the documented body is lines: [{ lineId }].
    expect(update({ lineId: [1, 2], status: "Picking" })).toEqual([
      "lineId is not a field of this request",
      "lines required",
      "lines must list the package's lines",
    ]);
  });

  it("knows no undocumented path", () => {
    expect(judgeN11Request(req({ path: "/ms/product/tasks/stock-update" }))).toBeUndefined();
  });

  it("the rules refuse 1,001 SKUs, a lone price, three decimals, listPrice below salePrice, a new integrator name, missing headers", () => {
    const rules = n11Rules();
    const ids = (r: RecordedRequest, earlier: RecordedRequest[] = []) =>
      applyRuntimeRules(rules, r, earlier).map((v) => v.rule);
    const many = Array.from({ length: 1001 }, (_, i) => ({ stockCode: `s${i}`, quantity: 1 }));
    expect(ids(req({ body: task(many) }))).toEqual(["n11.task-1000-skus"]);
    expect(ids(req({ body: task([{ stockCode: "A", salePrice: 10 }]) }))).toEqual(["n11.price-pair"]);
    expect(ids(req({ body: task([{ stockCode: "A", listPrice: 10.125, salePrice: 10 }]) }))).toEqual([
      "n11.price-two-decimals",
    ]);
    expect(ids(req({ body: task([{ stockCode: "A", listPrice: 9, salePrice: 10 }]) }))).toEqual([
      "n11.list-price-not-below-sale",
    ]);
    expect(ids(req({ body: task([{ stockCode: "A", quantity: 1 }], "Baska") }), [req({})])).toEqual([
      "n11.same-integrator",
    ]);
    expect(ids(req({ headers: { appkey: "k" } }))).toEqual(["n11.auth-headers"]);
  });

  it("the rules refuse a 16-day order window, orders before November 2024, SOAP product writes", () => {
    const rules = n11Rules();
    const ids = (r: RecordedRequest) => applyRuntimeRules(rules, r).map((v) => v.rule);
    const orders = (startDate: number, endDate: number) =>
      req({
        method: "GET",
        path: "/rest/delivery/v1/shipmentPackages",
        query: { startDate: String(startDate), endDate: String(endDate) },
        body: undefined,
      });
    const nov = Date.parse("2025-03-01T00:00:00Z");
    expect(ids(orders(nov, nov + 16 * 86_400_000))).toEqual(["n11.order-window-15-days"]);
    expect(ids(orders(Date.parse("2024-10-20T00:00:00Z"), Date.parse("2024-10-30T00:00:00Z")))).toEqual([
      "n11.orders-since-2024-11",
    ]);
    expect(ids(req({ path: "/ws/ProductStockService/", headers: {}, body: "<x/>" }))).toEqual([
      "n11.soap-product-writes-retired",
    ]);
  });

  it("the order-listing limit fires on the 1,001st request of a minute", () => {
    const rules = n11Rules();
    const o = (at: number) =>
      req({ at, method: "GET", path: "/rest/delivery/v1/shipmentPackages", body: undefined });
    const earlier = Array.from({ length: 1000 }, (_, i) => o(i));
    expect(applyRuntimeRules(rules, o(1000), earlier).map((v) => v.rule)).toEqual([
      "n11.orders-1000-per-minute",
    ]);
    expect(applyRuntimeRules(rules, o(61_000), earlier)).toEqual([]);
  });
});
