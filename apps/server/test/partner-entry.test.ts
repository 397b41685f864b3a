import {
  createShopifyConnector,
  type IdeasoftEmulator,
  InMemoryRateLimitStore,
  type ShopifyEmulator,
  shopifyQueryHmac,
  startIdeasoftEmulator,
  startShopifyEmulator,
} from "@ep/connectors";
import { PARTNER_ENTRIES } from "@ep/contracts";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  credentialPersister,
  findConnection,
  openCredentials,
} from "../src/modules/connections/repository.ts";
import { companies, partnerAccounts } from "../src/platform/db/schema.ts";
import { registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

/** `/{product}-auth` for a signed-in company: every shop of the partner list, one mechanism. */

let shopify: ShopifyEmulator;
let ideasoft: IdeasoftEmulator;
/** Ideasoft and Shopify apps configured (against their emulators). */
let t: TestApp;
/** No partner settings at all: what a fresh `npm start` has. */
let bare: TestApp;

beforeAll(async () => {
  shopify = await startShopifyEmulator({ seed: 5, productCount: 5, orderCount: 1 });
  ideasoft = await startIdeasoftEmulator({ seed: 4, productCount: 5, orderCount: 1, rateLimit: false });
  t = await startTestApp({
    IDEASOFT_CLIENT_ID: ideasoft.credentials.clientId,
    IDEASOFT_CLIENT_SECRET: ideasoft.credentials.clientSecret,
    IDEASOFT_OAUTH_BASE: ideasoft.url,
    SHOPIFY_CLIENT_ID: shopify.appCredentials.clientId,
    SHOPIFY_CLIENT_SECRET: shopify.appCredentials.clientSecret,
    SHOPIFY_OAUTH_BASE: shopify.url,
  });
  bare = await startTestApp();
  // Two servers and two emulators: on a busy machine more than the default minute.
}, 180_000);

afterAll(async () => {
  await t?.close();
  await bare?.close();
  await shopify?.close();
  await ideasoft?.close();
});

type Answer = { status: number; body: { data: Record<string, unknown> | null; message: string } };

async function post(
  app: TestApp,
  url: string,
  body: unknown,
  token?: string,
  cookie?: string,
): Promise<Answer> {
  const res = await app.app.inject({
    method: "POST",
    url,
    payload: body as Record<string, unknown>,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(cookie ? { cookie } : {}) },
  });
  const cookieOut = String(res.headers["set-cookie"] ?? "").split(";")[0] ?? "";
  return Object.assign({ status: res.statusCode, body: res.json() }, { cookie: cookieOut });
}

const start = (app: TestApp, product: string, token: string, store?: string) =>
  post(app, `/api/partner-install/${product}/start`, store ? { store } : {}, token) as Promise<
    Answer & { cookie: string }
  >;

async function companyOf(app: TestApp, token: string): Promise<number> {
  const res = await app.app.inject({ url: "/api/Account", headers: { authorization: `Bearer ${token}` } });
  return res.json().data.company.id as number;
}

/** What Shopify sends the merchant back with: code, shop, state, timestamp, signed with the app secret. */
function shopifyCallback(state: string, overrides: Record<string, string> = {}) {
  const query: Record<string, string> = {
    code: shopify.issueAuthCode(),
    host: Buffer.from(`${shopify.credentials.shopDomain}/admin`).toString("base64"),
    shop: shopify.credentials.shopDomain,
    state,
    timestamp: String(Math.floor(t.clock.now().getTime() / 1000)),
    ...overrides,
  };
  return { ...query, hmac: shopifyQueryHmac(query, shopify.appCredentials.clientSecret) };
}

const connect = (product: string, token: string, query: Record<string, string>, cookie?: string) =>
  post(
    t,
    `/api/partner-install/${product}/connect`,
    { store: query.shop ?? query.domain ?? "", code: query.code, state: query.state, query },
    token,
    cookie,
  );

describe("partner entry without the app's settings", () => {
  it("names the unset settings of each OAuth shop instead of a system error", async () => {
    const { token } = await registerAndLogin(bare.app);
    const s = await start(bare, "shopify", token, "deneme.myshopify.com");
    expect(s.status).toBe(400);
    expect(s.body.data?.errorCode).toBe("partner_not_configured");
    expect(s.body.data?.cause).toContain(
      "Shopify uygulama bilgileri (SHOPIFY_CLIENT_ID, SHOPIFY_CLIENT_SECRET)",
    );
    const i = await start(bare, "ideasoft", token, "magaza.myideasoft.com");
    expect(i.body.data?.cause).toContain(
      "Ideasoft uygulama bilgileri (IDEASOFT_CLIENT_ID, IDEASOFT_CLIENT_SECRET)",
    );
    expect(i.body.data?.cause).toContain("yöneticinizden");
  });

  it("the signed-out Ideasoft app-store landing says the same (was system_exception)", async () => {
    const res = await bare.app.inject({
      url: "/api/partner-install/ideasoft/authorize?domain=magaza.myideasoft.com",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().data.errorCode).toBe("partner_not_configured");
    expect(res.json().data.cause).toContain("IDEASOFT_CLIENT_ID");
  });
});

describe("partner entry links, signed in", () => {
  it("every shop of the list answers by its flow: consent page, connection form or not ready", async () => {
    for (const entry of PARTNER_ENTRIES) {
      const { token } = await registerAndLogin(t.app, { ecommerceType: 1, erpType: 9 });
      const store = entry.product === "shopify" ? shopify.credentials.shopDomain : "magaza.example.com";
      const res = await start(t, entry.product, token, store);
      if (entry.flow === "unavailable") {
        expect(res.body.data?.errorCode, entry.product).toBe("partner_unavailable");
        expect(res.body.data?.cause).toContain(`${entry.name} bağlantısı henüz hazır değil`);
        continue;
      }
      expect(res.status, `${entry.product}: ${JSON.stringify(res.body)}`).toBe(200);
      if (entry.flow === "oauth") {
        expect(res.body.data?.external).toBe(true);
        const url = new URL(String(res.body.data?.url));
        expect(url.searchParams.get("state")).toBeTruthy();
        expect(url.searchParams.get("redirect_uri")).toBe(`http://panel.test${entry.redirectPath}`);
        expect(res.cookie).toMatch(/^ep_oauth_state=/);
      } else {
        expect(res.body.data).toEqual({
          url: `/settings/api-keys?${entry.kind}=${entry.systemType}`,
          external: false,
        });
        const [company] = await t.ctx.database.db
          .select()
          .from(companies)
          .where(eq(companies.id, await companyOf(t, token)));
        expect(entry.kind === "shop" ? company?.ecommerceType : company?.erpType).toBe(entry.systemType);
      }
    }
  });

  it("a link without a store, an unknown shop and a signed-out caller are refused", async () => {
    const { token } = await registerAndLogin(t.app);
    expect((await start(t, "shopify", token)).body.data?.errorCode).toBe("store_missing");
    expect((await start(t, "shopify", token, "not a shop")).body.data?.errorCode).toBe("store_missing");
    expect((await start(t, "amazon", token, "x.example.com")).body.data?.errorCode).toBe(
      "partner_unavailable",
    );
    expect((await post(t, "/api/partner-install/shopify/start", { store: "a.myshopify.com" })).status).toBe(
      401,
    );
    expect((await post(t, "/api/partner-install/shopify/connect", { store: "a", code: "c" })).status).toBe(
      401,
    );
  });
});

describe("Shopify OAuth install", () => {
  it("stores an expiring offline token with its refresh token on the caller's company, and it works", async () => {
    const { token } = await registerAndLogin(t.app, { ecommerceType: 5 });
    const other = await registerAndLogin(t.app, { ecommerceType: 5 });
    const s = await start(t, "shopify", token, shopify.credentials.shopDomain);
    const state = new URL(String(s.body.data?.url)).searchParams.get("state") ?? "";
    const res = await connect("shopify", token, shopifyCallback(state), s.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual({ system: "Shopify", store: shopify.credentials.shopDomain });

    const companyId = await companyOf(t, token);
    const saved = await findConnection(t.ctx.database.db, companyId, "shop");
    expect(saved?.systemType).toBe(5);
    const creds = openCredentials(t.ctx.credentials, saved!);
    expect(creds.shopDomain).toBe(shopify.credentials.shopDomain);
    expect(creds.accessToken).toBeTruthy();
    expect(creds.refreshToken).toBeTruthy();
    expect(Number(creds.tokenExpiresAt)).toBeGreaterThan(t.clock.now().getTime());
    const connector = createShopifyConnector(creds, {
      companyId: "x",
      rateLimitStore: new InMemoryRateLimitStore(),
    });
    // The stored token answers the shop as it is (a refused one throws).
    await expect(connector.testConnection()).resolves.toBeDefined();
    // The other company saw nothing of it.
    expect(await findConnection(t.ctx.database.db, await companyOf(t, other.token), "shop")).toBeUndefined();
  });

  it("the installed token, once expired, is refreshed and the rotated pair saved on the connection", async () => {
    const { token } = await registerAndLogin(t.app, { ecommerceType: 5 });
    const s = await start(t, "shopify", token, shopify.credentials.shopDomain);
    const state = new URL(String(s.body.data?.url)).searchParams.get("state") ?? "";
    expect((await connect("shopify", token, shopifyCallback(state), s.cookie)).status).toBe(200);
    const companyId = await companyOf(t, token);
    const db = t.ctx.database.db;
    const installed = openCredentials(t.ctx.credentials, (await findConnection(db, companyId, "shop"))!);
    // As a sync builds it: the server's persister saves what the connector renews.
    const connector = createShopifyConnector(installed, {
      companyId: String(companyId),
      rateLimitStore: new InMemoryRateLimitStore(),
      persistCredentials: credentialPersister(db, t.ctx.credentials, companyId, "shop", installed),
    });
    shopify.expireTokens();
    await expect(connector.testConnection()).resolves.toBeDefined();
    const saved = openCredentials(t.ctx.credentials, (await findConnection(db, companyId, "shop"))!);
    expect(saved.refreshToken).toBeTruthy();
    expect(saved.refreshToken).not.toBe(installed.refreshToken);
    expect(saved.accessToken).not.toBe(installed.accessToken);
    // Stored encrypted: the row holds neither token in clear.
    const row = JSON.stringify(await findConnection(db, companyId, "shop"));
    expect(row).not.toContain(saved.refreshToken);
    expect(row).not.toContain(saved.accessToken);
  });

  it("a callback whose signature does not match is refused and nothing is stored", async () => {
    const { token } = await registerAndLogin(t.app);
    const s = await start(t, "shopify", token, shopify.credentials.shopDomain);
    const state = new URL(String(s.body.data?.url)).searchParams.get("state") ?? "";
    const forged = { ...shopifyCallback(state), shop: "baska-magaza.myshopify.com" };
    const res = await connect("shopify", token, forged, s.cookie);
    expect(res.body.data?.errorCode).toBe("callback_invalid");
    expect(res.body.data?.cause).toContain("Shopify dönüşünün imzası doğrulanamadı");
    expect(await findConnection(t.ctx.database.db, await companyOf(t, token), "shop")).toBeUndefined();
  });

  it("a state this browser did not start, or another company's, is refused", async () => {
    const a = await registerAndLogin(t.app);
    const b = await registerAndLogin(t.app);
    const s = await start(t, "shopify", a.token, shopify.credentials.shopDomain);
    const state = new URL(String(s.body.data?.url)).searchParams.get("state") ?? "";
    // No cookie at all (a link sent to someone).
    expect((await connect("shopify", a.token, shopifyCallback(state))).body.data?.errorCode).toBe(
      "state_mismatch",
    );
    // B's own browser, with A's state.
    const sb = await start(t, "shopify", b.token, shopify.credentials.shopDomain);
    const res = await connect("shopify", b.token, shopifyCallback(state), sb.cookie);
    expect(res.body.data?.errorCode).toBe("state_mismatch");
    expect(res.body.data?.cause).toContain("bu tarayıcıda başlatılmadı");
    expect(await findConnection(t.ctx.database.db, await companyOf(t, b.token), "shop")).toBeUndefined();
  });

  it("a spent code is the shop refusing it, in words", async () => {
    const { token } = await registerAndLogin(t.app);
    const s = await start(t, "shopify", token, shopify.credentials.shopDomain);
    const state = new URL(String(s.body.data?.url)).searchParams.get("state") ?? "";
    const res = await connect("shopify", token, shopifyCallback(state, { code: "harcanmis-kod" }), s.cookie);
    expect(res.body.data?.errorCode).toBe("code_refused");
    expect(res.body.data?.cause).toContain("Shopify onay kodunu kabul etmedi");
  });
});

describe("Ideasoft OAuth install, signed in", () => {
  it("connects the store to the current company (no new company)", async () => {
    const { token } = await registerAndLogin(t.app, { ecommerceType: 2 });
    const domain = ideasoft.credentials.storeDomain;
    const s = await start(t, "ideasoft", token, domain);
    const consent = await fetch(String(s.body.data?.url), { redirect: "manual" });
    const landing = new URL(consent.headers.get("location") ?? "");
    expect(landing.pathname).toBe("/ideasoft-app-install");
    const query = Object.fromEntries(landing.searchParams);
    const res = await connect("ideasoft", token, { ...query, domain }, s.cookie);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const companyId = await companyOf(t, token);
    const saved = await findConnection(t.ctx.database.db, companyId, "shop");
    expect(saved?.systemType).toBe(2);
    expect(openCredentials(t.ctx.credentials, saved!).storeDomain).toBe(domain);
    const links = await t.ctx.database.db
      .select()
      .from(partnerAccounts)
      .where(eq(partnerAccounts.externalId, domain));
    expect(links).toEqual([]);
  });
});
