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

  it("signs exactly as @shopify/shopify-api@15.0.0 does: `=` padding, spaces, `+`, `/`, arrays", () => {
    // Oracle: the official library's own generateLocalHmac (dist/cjs/lib/utils/hmac-validator.js of
    // `npm pack @shopify/shopify-api@15.0.0`, installed in a scratch directory, not a dependency), secret "hush".
    const base = { shop: "magaza.myshopify.com", timestamp: "1337178173" };
    const vectors: Array<[Record<string, string | string[]>, string]> = [
      [
        {
          ...base,
          code: "0907a61c0c8d55e99db179b68161bc00",
          host: "YWRtaW4uc2hvcGlmeS5jb20vc3RvcmUvbWFnYXph",
          state: "n0nce",
        },
        "7202e745a80a568521242c731d23077323a9b537296f579d35a9f2b8b858a244",
      ],
      // base64 `host` with `=` padding: the library signs it URL-encoded (%3D); raw `=` fails.
      [
        { ...base, code: "abc", host: "bWFnYXphLm15c2hvcGlmeS5jb20vYWRtaW4=", state: "n0nce" },
        "69db3b882e1be5558cb4387e2ff4393ea9ec88228293cf4642c3aae71c6b0e94",
      ],
      [
        { ...base, code: "abc", host: "bWFnYXphLm15c2hvcGlmeS5jb20vYWRtaW4x==", state: "a b+c/d", Zeta: "ü" },
        "72c8bc281e8b0c1ceb95cf3f6d59091a106850c20247b031314a5f14250c9318",
      ],
      [
        { ...base, ids: ["1", "2"], signature: "y" },
        "012686b07aa827ecca7449351e7f659050f55cdab1471d4c26aa017f3485287f",
      ],
    ];
    for (const [query, hmac] of vectors) expect(shopifyQueryHmac({ ...query, hmac: "x" }, SECRET)).toBe(hmac);
    const [, padded] = vectors;
    if (!padded) throw new Error("vector missing");
    expect(
      verifyShopifyCallback({ ...padded[0], hmac: padded[1] }, { clientSecret: SECRET, state: "n0nce" }),
    ).toEqual({ ok: true, shop: "magaza.myshopify.com" });
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
