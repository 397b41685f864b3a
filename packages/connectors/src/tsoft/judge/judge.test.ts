/**
 * The T-Soft judge itself: it refuses what the sources do not show, and the connector reads the answer
 * fixtures (./answers.ts) — a replay server built on the kit answers with them, never with emulator output.
 */

import { afterEach, describe, expect, it } from "vitest";
import { InMemoryRateLimitStore } from "../../sdk/rate-limit";
import type { RecordedRequest } from "../../testing/recorder";
import { describeFailures, judgeRequests } from "../../testing/recorder";
import { createEmulatorServer, type EmulatorServer } from "../../testing/server";
import { rest1Rows } from "../client";
import { createTsoftConnector } from "../connector";
import { mapTsoftOrder } from "../orders";
import { parseProductRow } from "../products";
import { TSOFT_ANSWERS, tsoftAnswer } from "./answers";
import { judgeTsoftRequest } from "./requests";

const req = (path: string, body: Record<string, string>, method = "POST"): RecordedRequest => ({
  at: 0,
  method,
  path,
  query: {},
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body,
});

describe("T-Soft request judge", () => {
  it("accepts the shapes the sources show", () => {
    for (const r of [
      req("/rest1/auth/login/entegrasyon", { user: "entegrasyon", pass: "x" }),
      req("/rest1/product/get", {
        token: "t",
        start: "0",
        limit: "500",
        FetchDetails: "true",
        ProductCode: "A|B",
      }),
      req("/rest1/order/get", {
        token: "t",
        OrderDateTimeStart: "2026-11-01 00:00:00",
        OrderDateTimeEnd: "2026-11-02 00:00:00",
        FetchProductData: "true",
        limit: "200",
      }),
      req("/rest1/subProduct/setSubProducts", {
        token: "t",
        data: JSON.stringify([{ MainProductCode: "A", SubProductCode: "A-1", Stock: "3", IsActive: "1" }]),
      }),
    ]) {
      expect(judgeTsoftRequest(r)?.problems, r.path).toEqual([]);
    }
  });

  it("refuses what they do not show", () => {
    const problems = (r: RecordedRequest) => judgeTsoftRequest(r)?.problems ?? ["unknown"];
    expect(problems(req("/rest1/product/get", { start: "0", limit: "500" }))).toContain(
      "token required in the form",
    );
    expect(problems(req("/rest1/product/get", { token: "t", limit: "1000" }))[0]).toMatch(/at most 500/);
    expect(
      problems(
        req("/rest1/order/get", {
          token: "t",
          OrderDateTimeStart: "2026-11-01T00:00:00Z",
          OrderDateTimeEnd: "2026-11-02 00:00:00",
          limit: "200",
        }),
      )[0],
    ).toMatch(/yyyy-MM-dd/);
    expect(
      problems(
        req("/rest1/subProduct/setSubProducts", {
          token: "t",
          data: JSON.stringify([{ MainProductCode: "A", SubProductCode: "B", Stock: 3 }]),
        }),
      ),
    ).toContain("data[0].Stock must be a string");
    expect(
      problems(
        req("/rest1/product/updateProducts", {
          token: "t",
          data: JSON.stringify([{ ProductCode: "A", Price: "3" }]),
        }),
      ),
    ).toContain("data[0].Price is not a field the sources show");
    expect(problems(req("/rest1/product/get", { token: "t", limit: "5" }, "GET"))).toContain("must be POST");
    expect(judgeTsoftRequest(req("/rest1/order/updateOrderStatus", { token: "t" }))).toBeUndefined();
  });
});

describe("T-Soft answer fixtures", () => {
  it("each names its source", () => {
    for (const f of TSOFT_ANSWERS) {
      expect(f.source.codeId).toMatch(/^\d+$/);
      expect(f.finding.length).toBeGreaterThan(10);
    }
  });

  it("products: main rows and their sub products, data as a list or an object", () => {
    const rows = rest1Rows(tsoftAnswer("products") as never).map(parseProductRow);
    expect(rows[0]).toMatchObject({ code: "STK-000001", price: 249.9, listPrice: 299.9 });
    expect(rows[0]?.variants.map((v) => [v.code, v.stock])).toEqual([
      ["STK-000001-M", 12],
      ["STK-000001-L", 4],
    ]);
    expect(rows[1]?.variants).toEqual([]);
    expect(rest1Rows(tsoftAnswer("products-object-data") as never).map(parseProductRow)[0]?.code).toBe(
      "STK-000003",
    );
  });

  it("orders: lines from OrderDetails, the status id, dates to ISO", () => {
    const [a, b] = rest1Rows(tsoftAnswer("orders") as never).map(mapTsoftOrder);
    expect(a).toMatchObject({
      id: "5001",
      orderNo: "TS-5001",
      status: "1",
      currency: "TRY",
      createdAt: "2026-11-20T10:15:00.000Z",
    });
    expect(a?.lines[0]).toMatchObject({ sku: "STK-000001-M", qty: 2, unitPrice: 249.9, total: 499.8 });
    expect(a?.totals.grandTotal).toBe(529.7);
    expect(b?.status).toBe("9");
  });
});

describe("T-Soft client against replayed answers", () => {
  let server: EmulatorServer | undefined;
  afterEach(async () => {
    if (!server) return;
    const report = judgeRequests(server.recorder.list(), judgeTsoftRequest);
    await server.close();
    server = undefined;
    expect(report.failures, describeFailures(report)).toEqual([]);
  });

  async function replay(script: Record<string, string[]>) {
    server = createEmulatorServer({
      formBodies: true,
      answers: { serverError: { body: "" }, tooManyRequests: () => ({}), lock: { body: {} } },
    });
    server.app.post("/rest1/*", async (r) => {
      const path = (r.params as { "*": string })["*"];
      const op = path.startsWith("auth/login/") ? "auth/login" : path;
      const next = script[op]?.shift();
      if (!next) throw new Error(`no fixture left for ${op}`);
      return tsoftAnswer(next);
    });
    const { url } = await server.listen();
    return createTsoftConnector(
      { storeUrl: `${url}/rest1/`, apiUser: "entegrasyon@magaza.com", apiPass: "p" },
      { companyId: "c1", rateLimitStore: new InMemoryRateLimitStore(), retry: { maxRetries: 0 } },
    );
  }

  it("a token refused inside HTTP 200 means one new login and the call once more", async () => {
    const shop = await replay({
      "auth/login": ["login-ok", "login-ok"],
      "product/get": ["token-refused", "products"],
    });
    expect((await shop.testConnection()).ok).toBe(true);
  });

  it("a refused login and a forbidden method are auth failures with T-Soft's words", async () => {
    const shop = await replay({ "auth/login": ["login-refused"] });
    await expect(shop.testConnection()).rejects.toMatchObject({
      reason: "auth",
      systemMessage: "Kullanıcı adı veya şifre hatalı",
    });
    await server?.close();
    server = undefined;
    const other = await replay({ "auth/login": ["login-ok"], "product/get": ["not-allowed"] });
    await expect(other.testConnection()).rejects.toMatchObject({
      reason: "auth",
      systemMessage: "Controller is not allowed!",
    });
  });
});
