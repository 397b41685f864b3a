import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { shopifyAuthorizeUrl, shopifyQueryHmac, verifyShopifyCallback, verifyShopifyWebhook } from "./auth";
import { normalizeShopDomain } from "./client";

const SECRET = "hush";

describe("Shopify OAuth install", () => {
  it("builds the authorize URL on the shop's own domain", () => {
    const url = new URL(
      shopifyAuthorizeUrl({
        shop: "magaza",
        clientId: "app1",
        scopes: ["read_products", "write_inventory"],
        redirectUri: "https://panel.example/cb",
        state: "n0nce",
      }),
    );
    expect(url.origin + url.pathname).toBe("https://magaza.myshopify.com/admin/oauth/authorize");
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "app1",
      scope: "read_products,write_inventory",
      redirect_uri: "https://panel.example/cb",
      state: "n0nce",
    });
  });

  it("signs the callback query as Shopify documents it (sorted, hmac left out)", () => {
    // Shopify's documented example: code=0907a61c0c8d55e99db179b68161bc00&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173
    const q = {
      code: "0907a61c0c8d55e99db179b68161bc00",
      shop: "some-shop.myshopify.com",
      state: "0.6784241404160823",
      timestamp: "1337178173",
    };
    const expected = createHmac("sha256", SECRET)
      .update(
        "code=0907a61c0c8d55e99db179b68161bc00&shop=some-shop.myshopify.com&state=0.6784241404160823&timestamp=1337178173",
      )
      .digest("hex");
    expect(shopifyQueryHmac({ ...q, hmac: "x" }, SECRET)).toBe(expected);
  });

  it("accepts a genuine callback and refuses tampering, a foreign state, a foreign host and staleness", () => {
    const q = { code: "abc", shop: "magaza.myshopify.com", state: "n0nce", timestamp: "1700000000" };
    const signed = { ...q, hmac: shopifyQueryHmac(q, SECRET) };
    const now = 1_700_000_100_000;
    expect(
      verifyShopifyCallback(signed, { clientSecret: SECRET, state: "n0nce", now, maxAgeS: 600 }),
    ).toEqual({ ok: true, shop: "magaza.myshopify.com" });
    expect(
      verifyShopifyCallback({ ...signed, code: "abd" }, { clientSecret: SECRET, state: "n0nce" }).problem,
    ).toBe("hmac");
    expect(verifyShopifyCallback(signed, { clientSecret: "other", state: "n0nce" }).problem).toBe("hmac");
    expect(verifyShopifyCallback(signed, { clientSecret: SECRET, state: "different" }).problem).toBe("state");
    const evil = { ...q, shop: "evil.example.com" };
    expect(
      verifyShopifyCallback(
        { ...evil, hmac: shopifyQueryHmac(evil, SECRET) },
        { clientSecret: SECRET, state: "n0nce" },
      ).problem,
    ).toBe("shop");
    expect(
      verifyShopifyCallback(signed, {
        clientSecret: SECRET,
        state: "n0nce",
        now: now + 3600_000,
        maxAgeS: 600,
      }).problem,
    ).toBe("stale");
  });

  it("normalises shop addresses and refuses others", () => {
    expect(normalizeShopDomain("https://Magaza.myshopify.com/admin")).toBe("magaza.myshopify.com");
    expect(normalizeShopDomain("magaza")).toBe("magaza.myshopify.com");
    expect(() => normalizeShopDomain("magaza.com.tr")).toThrow(/myshopify/);
  });
});

describe("Shopify webhook signature", () => {
  it("verifies X-Shopify-Hmac-Sha256 over the raw body", () => {
    const body = '{"id":820982911946154508,"email":"jon@example.com"}';
    const header = createHmac("sha256", SECRET).update(body, "utf8").digest("base64");
    expect(verifyShopifyWebhook(body, header, SECRET)).toBe(true);
    expect(verifyShopifyWebhook(Buffer.from(body), header, SECRET)).toBe(true);
    expect(verifyShopifyWebhook(`${body} `, header, SECRET)).toBe(false);
    expect(verifyShopifyWebhook(body, header, "wrong")).toBe(false);
    expect(verifyShopifyWebhook(body, undefined, SECRET)).toBe(false);
    expect(verifyShopifyWebhook(body, "short", SECRET)).toBe(false);
  });
});
