import { createHmac } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import type { Credentials } from "../sdk/connector";
import { caught, readAllPages } from "../testing/contract";
import {
  contractSuite,
  describeVersionPin,
  expectConformance,
  expectOrderWritesRefused,
  expectRetriedThroughFaults,
} from "../testing/contract-suite";
import { describeFailures } from "../testing/recorder";
import { judgeWithRules, rulesMissingFrom, unsourcedRules } from "../testing/runtime-rules";
import { ShopierConnector } from "./connector";
import { SHOPIER_OAUTH_TOKEN_TTL_S } from "./descriptor";
import { startShopierEmulator } from "./emulator/server";
import { judgeShopierRequest } from "./judge/requests";
import { SHOPIER_VERSION_PIN, shopierRules } from "./judge/rules";

const suite = contractSuite({
  start: () => startShopierEmulator({ seed: 13, productCount: 100 }),
  connect: (emu, ctx) => new ShopierConnector(emu.credentials, ctx),
  judge: judgeShopierRequest,
  rules: shopierRules,
  context: { batch: { page: 20 } },
});

describe("Shopier connector against the emulator", () => {
  it("connects with the personal access token, and a wrong one is an auth failure", async () => {
    expect((await suite.conn.testConnection()).ok).toBe(true);
    const bad = new ShopierConnector({ ...suite.emu.credentials, accessToken: "yanlis" }, suite.ctx());
    expect((await caught(bad.testConnection())).reason).toBe("auth");
    expect(JSON.stringify(suite.logs)).not.toContain(suite.emu.credentials.accessToken);
  });

  it("reads every product page; variants keyed by product id and selection ids", async () => {
    const { items, pages } = await readAllPages((t) => suite.conn.listProducts({ pageToken: t }));
    expect(items).toHaveLength(suite.emu.products.length);
    expect(pages).toBe(Math.ceil(suite.emu.products.length / 20));
    const withVariants = items.find((p) => p.variants.length > 1);
    const source = suite.emu.products.find((p) => p.id === withVariants?.sku);
    expect(withVariants?.variants[0]?.sku).toBe(`${source?.id}-${source?.variants?.[0]?.selectionId[0]}`);
    expect(Object.values(withVariants?.variants[0]?.options ?? {})).toEqual([
      source?.variants?.[0]?.selectionTitle[0],
    ]);
    expect(new Set(items.flatMap((p) => p.variants.map((v) => v.sku))).size).toBe(100);
    expect(items.every((p) => p.vatRate === 20 && p.categoryPath.length === 1)).toBe(true);
  });

  it("reads stock per SKU and the price a buyer pays (discounted when a discount is on)", async () => {
    const stock = await readAllPages((t) => suite.conn.listStock({ pageToken: t }));
    expect(stock.items).toHaveLength(100);
    expect(stock.items.every((s) => s.location === "shopier")).toBe(true);
    const prices = await readAllPages((t) => suite.conn.listPrices({ pageToken: t }));
    expect(prices.items).toHaveLength(100);
    const discounted = suite.emu.products.find(
      (p) => p.priceData.discount && (p.variants ?? []).length === 0,
    );
    const price = prices.items.find((p) => p.sku === discounted?.id);
    expect(price?.amount).toBeCloseTo(Number(discounted?.priceData.discountedPrice), 2);
    expect(prices.items.every((p) => p.vatIncluded && p.currency === "TRY")).toBe(true);
  });

  it("reads variants whose selection fields are single strings (shopier-go) to the same SKUs and options", async () => {
    const other = await startShopierEmulator({ seed: 13, productCount: 100, variantFields: "strings" });
    try {
      const c = new ShopierConnector(other.credentials, suite.ctx());
      const [a, b] = await Promise.all([
        readAllPages((t) => suite.conn.listProducts({ pageToken: t })),
        readAllPages((t) => c.listProducts({ pageToken: t })),
      ]);
      // Same products, variants and options (the two emulators differ only in when they started).
      const strip = (ps: typeof a.items) => ps.map(({ updatedAt: _u, ...p }) => p);
      expect(strip(b.items)).toEqual(strip(a.items));
      const stock = await readAllPages((t) => c.listStock({ pageToken: t }));
      expect(new Set(stock.items.map((x) => x.sku)).size).toBe(100);
      const report = judgeWithRules(other.recorder.list(), judgeShopierRequest, shopierRules);
      expect(describeFailures(report)).toBe("");
    } finally {
      await other.close();
    }
  });

  it("reads the categories", async () => {
    const cats = (await suite.conn.listCategories()).items;
    expect(cats.map((c) => c.id).sort()).toEqual(suite.emu.categories.map((c) => c.id).sort());
  });

  it("refuses a VAT rate setting that is no Turkish rate, in Turkish", async () => {
    const c = new ShopierConnector({ ...suite.emu.credentials, vatRate: "18" }, suite.ctx());
    const e = await caught(c.listProducts());
    expect(e.reason).toBe("config");
    expect(e.merchantMessage).toContain("18");
  });

  it("says what Shopier as the ERP means: orders and customers are not written, and nothing is sent", async () => {
    await expectOrderWritesRefused(suite.conn, () => suite.emu.counters.requests, "Shopier");
    expect(suite.conn.descriptor.notes).toContain("Shopier'e yazılamaz");
  });

  it("accepts a notification signed with the webhook token and refuses others", () => {
    const body = JSON.stringify({ id: "9001", status: "unfulfilled" });
    expect(suite.conn.verifyWebhook(body, suite.emu.signWebhook(body))).toBe(true);
    expect(suite.conn.verifyWebhook(`${body}x`, suite.emu.signWebhook(body))).toBe(false);
    expect(suite.conn.verifyWebhook(body, undefined)).toBe(false);
  });
});

describe("Shopier credentials: a personal access token or an OAuth app (shopier-go)", () => {
  it("renews a three-day OAuth token with the refresh token, saves each new pair, and renews after a revocation", async () => {
    let offset = 0;
    const clock = () => Date.now() + offset;
    const o = await startShopierEmulator({ seed: 5, productCount: 10, now: clock });
    try {
      const saved: Credentials[] = [];
      const persistCredentials = async (changed: Credentials) => {
        saved.push(changed);
      };
      const c = new ShopierConnector(o.oauthCredentials, suite.ctx({ now: clock, persistCredentials }));
      expect((await c.testConnection()).ok).toBe(true);
      expect(o.tokenRequests.issued).toBe(1);
      expect(saved[0]?.refreshToken).not.toBe(o.oauthCredentials.refreshToken);
      expect(Number(saved[0]?.tokenExpiresAt)).toBeGreaterThan(
        clock() + (SHOPIER_OAUTH_TOKEN_TTL_S - 60) * 1000,
      );
      await c.listProducts();
      expect(o.tokenRequests.issued).toBe(1); // the live token is reused
      offset += SHOPIER_OAUTH_TOKEN_TTL_S * 1000; // three days later
      expect((await c.listProducts()).items.length).toBeGreaterThan(0);
      expect(o.tokenRequests.issued).toBe(2);
      o.revokeAccessTokens(); // refused before its time: renewed once
      expect((await c.listProducts()).items.length).toBeGreaterThan(0);
      expect(o.tokenRequests.issued).toBe(3);
      // The next run starts from the saved pair: no token request while its token lives.
      const next = new ShopierConnector(
        { ...o.oauthCredentials, ...saved.at(-1) },
        suite.ctx({ now: clock, persistCredentials }),
      );
      await next.listProducts();
      expect(o.tokenRequests.issued).toBe(3);
      // The first refresh token was spent (rotated): a connection still holding it must authorise again.
      const stale = new ShopierConnector(o.oauthCredentials, suite.ctx({ now: clock }));
      expect((await caught(stale.testConnection())).reason).toBe("auth");
      const report = judgeWithRules(o.recorder.list(), judgeShopierRequest, shopierRules);
      expect(report.operations["POST /oauth2/token"]?.requests).toBe(4);
      expect(describeFailures(report)).toBe("");
      expect(JSON.stringify(suite.logs)).not.toContain(saved[0]?.refreshToken ?? "none");
    } finally {
      await o.close();
    }
  });

  it("without a token or an OAuth app the connection is refused in Turkish, nothing sent", async () => {
    const before = suite.emu.counters.requests;
    const e = await caught(
      Promise.resolve().then(
        () => new ShopierConnector({ apiUrl: suite.emu.credentials.apiUrl }, suite.ctx()),
      ),
    );
    expect(e.reason).toBe("config");
    expect(e.merchantMessage).toContain("OAuth");
    expect(suite.emu.counters.requests).toBe(before);
  });

  it("accepts a notification signed in base64 as well as hex (shopier-go, live sync)", () => {
    const body = JSON.stringify({ id: "9002", status: "fulfilled" });
    const mac = createHmac("sha256", suite.emu.credentials.webhookToken).update(body).digest();
    expect(suite.conn.verifyWebhook(body, mac.toString("base64"))).toBe(true);
    expect(suite.conn.verifyWebhook(body, mac.toString("hex").toUpperCase())).toBe(true);
    expect(suite.conn.verifyWebhook(`${body} `, mac.toString("base64"))).toBe(false);
  });
});

describe("Shopier runtime rules", () => {
  it("have sources, VERIFIED.md lists them, and the emulator refuses what they refuse", async () => {
    expect(unsourcedRules(shopierRules)).toEqual([]);
    const verified = readFileSync(new URL("./VERIFIED.md", import.meta.url), "utf8");
    expect(rulesMissingFrom(verified, shopierRules)).toEqual([]);
    const auth = { authorization: `Bearer ${suite.emu.credentials.accessToken}` };
    for (const [query, rule] of [
      ["limit=51", "shopier.list.limit"],
      ["limit=0", "shopier.list.limit"],
      ["sort=desc", "shopier.list.sort"],
    ] as const) {
      const res = await fetch(`${suite.emu.url}/v1/products?${query}`, { headers: auth });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { message: string }).message).toContain(rule);
    }
    const token = await fetch(`${suite.emu.url}/v1/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "grant_type=password&client_id=x",
    });
    expect(token.status).toBe(400);
    suite.emu.recorder.clear(); // hand-made requests are not the connector's
  });
});

describe("Shopier faults", () => {
  it("retries after 429 with Retry-After, a 5xx and a timeout", async () => {
    await expectRetriedThroughFaults(
      suite.emu,
      () => suite.conn.listProducts(),
      (p) => expect(p.items).toHaveLength(20),
    );
  });

  it("a revoked token is a permanent auth failure (a PAT cannot be refreshed)", async () => {
    suite.emu.faults.enqueue({ kind: "auth" });
    expect((await caught(suite.conn.listProducts())).reason).toBe("auth");
  });
});

describe("Shopier conformance", () => {
  it("every request the connector sent was judged and none was rejected", () => {
    expectConformance("shopier", suite.conformance.report, { requests: 11 });
  });
});

describeVersionPin("Shopier REST API: version pin", SHOPIER_VERSION_PIN);
