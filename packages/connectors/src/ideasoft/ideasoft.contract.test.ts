/**
 * Ideasoft contract and conformance: the connector against the emulator, which refuses (400) what the
 * vendor OpenAPI refuses; afterwards every request it received is judged against the OpenAPI operation
 * (an unknown operation fails) and every answer it gave is judged against the operation's schema.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Credentials } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { describeFailures, judgeRequests, type RecordedRequest } from "../testing/recorder";
import { expectPinnedVersionSupported } from "../testing/version-pin";
import { exchangeIdeasoftCode, ideasoftAuthorizeUrl } from "./client";
import { IdeasoftConnector } from "./connector";
import { type IdeasoftEmulator, startIdeasoftEmulator } from "./emulator/server";
import { ideasoftJudge } from "./judge/openapi";
import { IDEASOFT_VERSION_PIN } from "./judge/rules";

const judge = ideasoftJudge();
let emu: IdeasoftEmulator;
const seen: RecordedRequest[] = [];
const persisted: Credentials[] = [];

function connector(creds: Partial<Credentials> = {}, timeoutMs = 5_000) {
  return new IdeasoftConnector(
    // As the server does: the last persisted token pair replaces the stored one.
    { ...emu.credentials, ...persisted.at(-1), ...creds },
    {
      companyId: "c1",
      rateLimitStore: new InMemoryRateLimitStore(),
      budget: { requests: 1000, windowMs: 1000 },
      timeoutMs,
      retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5 },
      persistCredentials: async (changed) => {
        persisted.push(changed);
      },
    },
  );
}

beforeAll(async () => {
  emu = await startIdeasoftEmulator({
    seed: 7,
    productCount: 40,
    orderCount: 7,
    rateLimit: false,
    judge,
    recordAnswers: true,
    faults: { hangMs: 1_500 },
  });
});

afterAll(async () => {
  await emu?.close();
});

describe("Ideasoft connector against the emulator", () => {
  it("signs in with the refresh token, persists the rotated pair and reads the store", async () => {
    const c = connector();
    const info = await c.testConnection();
    expect(info.description).toContain("deneme.myideasoft.com");
    const last = persisted.at(-1);
    expect(last?.accessToken).toBeTruthy();
    expect(last?.refreshToken).not.toBe(emu.credentials.refreshToken);
    // The old refresh token died with the refresh.
    expect(emu.liveRefreshTokens()).not.toContain(emu.credentials.refreshToken);
    expect(emu.liveRefreshTokens()).toContain(last?.refreshToken);
  });

  it("lists and creates categories, finds products by sku, creates and updates products", async () => {
    const c = connector();
    const cats = await c.listCategories();
    expect(cats.length).toBeGreaterThan(1);
    const parent = cats.find((x) => !x.parentId);
    const created = await c.createCategory({ name: "Kışlık Montlar", parentId: parent?.id });
    expect(created.parentId).toBe(parent?.id);

    const some = [...emu.state.products.values()].filter((p) => p.hasOption === 0).slice(0, 3);
    const found = await c.findProductsBySku(some.map((p) => p.sku));
    expect(found.size).toBe(3);

    const single = await c.createProduct({
      product: {
        sku: "YENI-0001",
        name: "Bambu Çay Bardağı Seti",
        categoryPath: [],
        vatRate: 20,
        unit: "Adet",
        variants: [{ sku: "YENI-0001", barcodes: ["8690000000017"], options: {} }],
        images: [],
        isActive: true,
      },
      categoryId: created.id,
      prices: [{ sku: "YENI-0001", amount: 149.9, currency: "TRY" }],
    });
    expect(single.variants["YENI-0001"]).toBe(single.productId);

    const multi = await c.createProduct({
      product: {
        sku: "MDL-YENI",
        name: "Pamuklu Tişört",
        categoryPath: [],
        vatRate: 10,
        unit: "Adet",
        variants: [
          { sku: "YENI-S", barcodes: [], options: { Beden: "S" } },
          { sku: "YENI-M", barcodes: [], options: { Beden: "M" } },
        ],
        images: [],
        isActive: true,
      },
    });
    expect(Object.keys(multi.variants)).toEqual(["YENI-S", "YENI-M"]);
    expect(emu.state.products.get(Number(multi.variants["YENI-M"]))?.parent?.id).toBe(
      Number(multi.productId),
    );

    const upd = await c.updateProduct(single.productId, {
      product: {
        sku: "YENI-0001",
        name: "Bambu Çay Bardağı Seti 6'lı",
        categoryPath: [],
        vatRate: 20,
        unit: "Adet",
        variants: [{ sku: "YENI-0001", barcodes: ["8690000000017"], options: {} }],
        images: [],
        isActive: false,
      },
    });
    expect(upd.productId).toBe(single.productId);
    const stored = emu.state.products.get(Number(single.productId));
    expect(stored?.name).toBe("Bambu Çay Bardağı Seti 6'lı");
    expect(stored?.status).toBe(0);
  });

  it("writes stock and prices (price1 with a discount, and price list 2), unknown skus fail per item", async () => {
    const c = connector();
    const p = [...emu.state.products.values()].find((x) => x.hasOption === 0 && !x.parent);
    if (!p) throw new Error("no product");
    const stock = await c.setStock([
      { sku: p.sku, locationId: "default", qty: 17 },
      { sku: "YOK-BOYLE-BIR-SKU", locationId: "default", qty: 1 },
    ]);
    expect(stock.applied).toBe(1);
    expect(stock.failed[0]?.error.reason).toBe("unknown_item");
    expect(emu.state.products.get(p.id)?.stockAmount).toBe(17);

    const prices = await c.setPrices([
      { sku: p.sku, amount: 199.9, listAmount: 249.9, currency: "TRY" },
      { sku: p.sku, amount: 180, currency: "TRY", priceListId: "2" },
      { sku: p.sku, amount: 175, currency: "TRY", priceListId: "2" },
    ]);
    expect(prices.applied).toBe(3);
    const after = emu.state.products.get(p.id);
    expect(after?.price1).toBe(249.9);
    expect(after?.discount).toBe(50);
    const rows = [...emu.state.productPrices.values()].filter((r) => r.product.id === p.id);
    expect(rows.map((r) => [r.type, r.value])).toEqual([[2, 175]]);
  });

  it("pages orders by id with a sinceId cursor and updates an order's status", async () => {
    const c = connector();
    const first = await c.listOrders({ pageSize: 5 });
    expect(first.items).toHaveLength(5);
    expect(first.nextPageToken).toBeDefined();
    const second = await c.listOrders({ pageSize: 5, pageToken: first.nextPageToken });
    expect(second.items).toHaveLength(2);
    expect(second.nextPageToken).toBeUndefined();
    const order = first.items[0];
    expect(order?.orderNo).toMatch(/^IDS\d+$/);
    expect(order?.lines.length).toBeGreaterThan(0);
    expect(order?.currency).toBe("TRY");

    emu.generateOrders(2);
    const next = await c.listOrders({ since: second.cursor });
    expect(next.items).toHaveLength(2);

    await c.updateOrderStatus(order?.id ?? "", { status: "fulfilled", trackingNumber: "YK123456789" });
    const stored = emu.state.orders.get(Number(order?.id));
    expect(stored?.status).toBe("fulfilled");
    expect(stored?.shippingTrackingCode).toBe("YK123456789");
    await expect(c.updateOrderStatus("999999", { status: "approved" })).rejects.toMatchObject({
      reason: "unknown_item",
    });
    await expect(c.attachInvoice(order?.id ?? "")).rejects.toMatchObject({ reason: "unsupported" });
    expect((await c.listPaymentTypes()).map((p) => p.name)).toContain("Havale");
  });

  it("reads the internet-sale data: payment type and provider, cash on delivery, carrier, tracking, dispatch", async () => {
    const c = connector();
    const fresh = emu.generateOrders(3);
    const card = fresh.find((o) => o.paymentTypeName === "Kredi Kartı");
    const transfer = fresh.find((o) => o.paymentTypeName === "Havale");
    const cod = fresh.find((o) => o.shippingPaymentType === "cash_on_delivery");
    if (!card || !transfer || !cod) throw new Error("the emulator rotates three payment types");
    card.createdAt = "2026-11-20T22:10:00+00:00";
    await c.updateOrderStatus(String(card.id), { status: "fulfilled", trackingNumber: "YK-42" });
    const read = new Map(
      (await c.listOrders({ since: String(Math.min(...fresh.map((o) => o.id)) - 1) })).items.map((o) => [
        o.id,
        o,
      ]),
    );
    const day = (iso?: string) => new Date(Date.parse(iso ?? "") + 3 * 3_600_000).toISOString().slice(0, 10);
    expect(read.get(String(card.id))?.payment).toEqual({
      means: "KREDIKARTI/BANKAKARTI",
      date: "2026-11-21",
      agent: "iyzico",
    });
    expect(read.get(String(card.id))?.delivery).toEqual({
      carrier: card.shippingCompanyName,
      trackingNumber: "YK-42",
      dispatchDate: day(card.updatedAt),
    });
    expect(read.get(String(transfer.id))?.payment).toEqual({ means: "EFT/HAVALE" });
    expect(read.get(String(cod.id))?.payment).toEqual({ means: "KAPIDAODEME" });
    // Not yet shipped: the carrier the buyer chose, no dispatch date.
    expect(read.get(String(cod.id))?.delivery).toEqual({ carrier: cod.shippingCompanyName });
  });

  it("refreshes an expired access token once and goes on", async () => {
    const c = connector();
    await c.listCategories();
    const before = emu.counters.refreshes;
    emu.expireTokens();
    await c.listCategories();
    expect(emu.counters.refreshes).toBe(before + 1);
  });

  it("a refused refresh token is an auth failure", async () => {
    const c = connector({ refreshToken: "iptal-edilmis", accessToken: "", tokenExpiresAt: "" });
    await expect(c.listCategories()).rejects.toMatchObject({ reason: "auth" });
  });

  it("retries 429 with Retry-After, 5xx and timeouts on reads", async () => {
    const c = connector({}, 400);
    await c.listCategories();
    emu.faults.enqueue({ kind: "429", operation: "listCategories" });
    emu.faults.enqueue({ kind: "5xx", operation: "listCategories" });
    emu.faults.enqueue({ kind: "timeout", operation: "listCategories" });
    const before = emu.counters.faults;
    const cats = await c.listCategories();
    expect(cats.length).toBeGreaterThan(0);
    expect(before["429"]).toBeGreaterThan(0);
    expect(before["5xx"]).toBeGreaterThan(0);
    expect(before.timeout).toBeGreaterThan(0);
  });

  it("an absolute PUT answered 5xx is sent again; a POST answered 5xx is maybe applied, not re-sent", async () => {
    const c = connector();
    const p = [...emu.state.products.values()].find((x) => x.hasOption === 0 && !x.parent);
    emu.faults.enqueue({ kind: "5xx", operation: "updateProduct" });
    const stock = await c.setStock([{ sku: p?.sku ?? "", locationId: "default", qty: 3 }]);
    expect(stock.applied).toBe(1);
    expect(emu.state.products.get(p?.id ?? 0)?.stockAmount).toBe(3);

    emu.faults.enqueue({ kind: "5xx", operation: "createProduct" });
    const before = emu.counters.byOperation.createProduct ?? 0;
    const input = {
      product: {
        sku: "YENI-5XX",
        name: "Seramik Kupa",
        categoryPath: [],
        vatRate: 20,
        unit: "Adet",
        variants: [{ sku: "YENI-5XX", barcodes: [], options: {} }],
        images: [],
        isActive: true,
      },
    };
    await expect(c.createProduct(input)).rejects.toSatisfy(
      (e: unknown) => e instanceof ConnectorError && e.maybeApplied && e.kind === "transient",
    );
    expect((emu.counters.byOperation.createProduct ?? 0) - before).toBe(1);
  });
});

describe("app install: consent, code exchange, store owner and package", () => {
  it("exchanges the code the consent page hands out, then reads owner and installed app", async () => {
    const redirectUri = "http://panel.test/ideasoft-app-install";
    const consent = await fetch(
      ideasoftAuthorizeUrl(emu.url, { clientId: emu.credentials.clientId, redirectUri, state: "s1" }),
      { redirect: "manual" },
    );
    expect(consent.status).toBe(302);
    const landing = new URL(consent.headers.get("location") ?? "");
    expect(landing.pathname).toBe("/ideasoft-app-install");
    expect(landing.searchParams.get("state")).toBe("s1");
    const code = landing.searchParams.get("code") ?? "";
    const ctx = { companyId: "install", rateLimitStore: new InMemoryRateLimitStore() };
    const tokens = await exchangeIdeasoftCode(
      {
        baseUrl: emu.url,
        clientId: emu.credentials.clientId,
        clientSecret: emu.credentials.clientSecret,
        code,
        redirectUri,
      },
      ctx,
    );
    expect(tokens.refreshToken).toBeTruthy();
    // A code works once.
    await expect(
      exchangeIdeasoftCode(
        {
          baseUrl: emu.url,
          clientId: emu.credentials.clientId,
          clientSecret: emu.credentials.clientSecret,
          code,
          redirectUri,
        },
        ctx,
      ),
    ).rejects.toMatchObject({ reason: "auth" });
    const c = new IdeasoftConnector({ ...emu.credentials, ...tokens }, ctx);
    expect(await c.storeOwner()).toEqual({
      email: "ayse.yilmaz@example.com.tr",
      firstName: "Ayşe",
      lastName: "Yılmaz",
    });
    expect((await c.installedApplications())[0]?.applicationName).toBe("Entegrasyon Paneli ERP + E-Ticaret");
  });
});

describe("conformance with the vendor OpenAPI", () => {
  it("every request the connector sent is an operation of the file and validates", () => {
    seen.push(...emu.recorder.list());
    const report = judgeRequests(seen, judge.requestJudge);
    const ops = Object.keys(report.operations).sort();
    console.info(
      `Ideasoft conformance: ${ops.length} operations, ${report.requests} requests, ${report.failures.length} rejected\n  ${ops.join("\n  ")}`,
    );
    expect(emu.counters.refused).toBe(0);
    expect(report.failures, describeFailures(report)).toEqual([]);
    expect(ops.length).toBeGreaterThanOrEqual(14);
  });

  it("every successful answer the emulator gave validates against the operation's schema", () => {
    const api = emu.answers.filter((a) => a.path.startsWith("/admin-api/") && a.status < 300);
    const problems = api.flatMap((a) => {
      const v = judge.judgeAnswer(a.method, a.path, a.status, a.body);
      return v.problems.map((p) => `${v.operation}: ${p}`);
    });
    expect(api.length).toBeGreaterThan(30);
    expect(problems.slice(0, 10)).toEqual([]);
    console.info(`Ideasoft answers: ${api.length} judged, ${problems.length} rejected`);
  });

  it("the judge refuses what the file refuses", () => {
    expect(
      judge.judgeRequest({ method: "PUT", path: "/admin-api/products/5", body: { stockAmount: 3 } }).problems,
    ).not.toEqual([]);
    expect(
      judge.judgeRequest({ method: "GET", path: "/admin-api/products", query: { limit: "x" } }).problems,
    ).not.toEqual([]);
    expect(
      judge.judgeRequest({ method: "GET", path: "/admin-api/products", query: { sku: "A" } }).problems,
    ).not.toEqual([]);
    expect(judge.judgeRequest({ method: "GET", path: "/admin-api/nope" }).problems).toEqual([
      "unknown operation",
    ]);
    expect(judge.judgeAnswer("GET", "/admin-api/orders", 200, [{ id: 1 }]).problems).not.toEqual([]);
  });
});

describe("Ideasoft Admin API (Ideashop API): version pin", () => {
  it("speaks a supported API version", () => expectPinnedVersionSupported(IDEASOFT_VERSION_PIN));
});
