/** The Sopyo judge and the answer fixtures: both detail wrappers read, malformed answers refused. */

import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/recorder";
import { mapSopyoOrder, unwrapDetail } from "../orders";
import { SOPYO_ANSWERS, sopyoAnswer } from "./answers";
import { judgeSopyoRequest } from "./requests";

const req = (
  method: string,
  path: string,
  body?: unknown,
  query: Record<string, string> = {},
  auth = "Bearer t",
): RecordedRequest => ({
  at: 0,
  method,
  path,
  query,
  headers: { authorization: auth, "content-type": "application/json" },
  body,
});

describe("Sopyo request judge", () => {
  it("accepts the client's shapes", () => {
    expect(judgeSopyoRequest(req("POST", "/api/v2/auth/login", { api_token: ["k"] }))?.problems).toEqual([]);
    expect(
      judgeSopyoRequest(req("GET", "/api/v2/orders", undefined, { page: "2", "order_code[eq]": "A" }))
        ?.problems,
    ).toEqual([]);
    expect(judgeSopyoRequest(req("GET", "/api/v2/orders/38154205"))?.problems).toEqual([]);
  });

  it("refuses what the client does not send", () => {
    expect(judgeSopyoRequest(req("POST", "/api/v2/auth/login", { api_token: "k" }))?.problems).toEqual([
      "body must be { api_token: [token] }",
    ]);
    expect(judgeSopyoRequest(req("GET", "/api/v2/orders", undefined, { page: "0" }))?.problems).toContain(
      "page must be a positive integer",
    );
    expect(
      judgeSopyoRequest(req("GET", "/api/v2/orders", undefined, { page: "1", per_page: "50" }))?.problems,
    ).toContain("per_page is not a parameter the source shows");
    expect(judgeSopyoRequest(req("GET", "/api/v2/orders/1", undefined, {}, ""))?.problems).toContain(
      "Authorization: Bearer <token> required",
    );
    expect(
      judgeSopyoRequest(req("POST", "/api/v2/orders", { order_code: "A" }))?.problems.length,
    ).toBeGreaterThan(3);
    expect(judgeSopyoRequest(req("GET", "/api/v2/products"))).toBeUndefined();
  });
});

describe("Sopyo answer fixtures", () => {
  it("each names its source", () => {
    for (const f of SOPYO_ANSWERS) expect(f.source.codeId).toMatch(/^\d+$/);
  });

  it("reads the detail bare and under data, to the same order", () => {
    const bare = unwrapDetail(sopyoAnswer("order-detail-bare"));
    const data = unwrapDetail(sopyoAnswer("order-detail-data"));
    expect(bare?.wrapper).toBe("bare");
    expect(data?.wrapper).toBe("data");
    expect(mapSopyoOrder(bare?.order ?? {})).toEqual(mapSopyoOrder(data?.order ?? {}));
    const o = mapSopyoOrder(bare?.order ?? {});
    expect(o).toMatchObject({ id: "38154205", orderNo: "WEB-100234", status: "6", salesChannel: "SOPYOAPI" });
    expect(o.lines[0]).toMatchObject({ sku: "STK-000004", qty: 1, total: 1899.9 });
    expect(o.shippingAddress).toMatchObject({
      city: "Ankara",
      district: "Çankaya",
      firstName: "Mehmet",
      lastName: "Kaya",
    });
  });

  it("data wins over look-alike top-level fields; a null or list data is no order", () => {
    const both = unwrapDetail({ id: 1, order_code: "other", data: { id: 2, order_code: "right" } });
    expect(both?.order.order_code).toBe("right");
    expect(unwrapDetail({ data: null })).toBeUndefined();
    expect(unwrapDetail({ data: [{ id: 1 }] })).toBeUndefined();
    expect(unwrapDetail(["x"])).toBeUndefined();
  });
});
