import { createHmac } from "node:crypto";
import { Webhook } from "@bbangg/shopier";
import { describe, expect, it } from "vitest";
import { verifyShopierWebhook } from "../client";
import { deriveShopierApi } from "./derive";
import { judgeShopierRequest } from "./requests";
import fixture from "./shopier-api.generated.json" with { type: "json" };

describe("Shopier judge", () => {
  it("is derived from the installed @bbangg/shopier@1.0.7 and unchanged", () => {
    expect(deriveShopierApi()).toEqual(fixture);
    expect(fixture.version).toBe("1.0.7");
    expect(fixture.gets["/products"]).toEqual(expect.arrayContaining(["page", "limit", "sort"]));
  });

  it("rejects what the package never sends", () => {
    const get = (path: string, query: Record<string, unknown>, authorization = "Bearer pat") => ({
      at: 0,
      method: "GET",
      path,
      query,
      headers: { authorization },
      body: undefined,
    });
    expect(
      judgeShopierRequest(get("/v1/products", { page: "2", limit: "50", sort: "dateAsc" }))?.problems,
    ).toEqual([]);
    expect(judgeShopierRequest(get("/v1/products", { per_page: "50" }))?.problems).toEqual([
      "/products takes no query parameter per_page",
    ]);
    expect(judgeShopierRequest(get("/v1/products", { sort: "title" }))?.problems).toEqual([
      "sort must be one of dateAsc, dateDesc",
    ]);
    expect(judgeShopierRequest(get("/v1/categories", {}, "JWT x"))?.problems).toEqual([
      "Authorization: Bearer <personal access token> missing",
    ]);
    expect(judgeShopierRequest(get("/v1/stock", {}))).toBeUndefined();
    expect(judgeShopierRequest({ ...get("/v1/orders", {}), method: "POST" })).toBeUndefined();
  });

  it("checks webhook signatures exactly as the package's Webhook.validate does", () => {
    const token = "wh-secret";
    const hook = new Webhook({ token });
    const other = new Webhook({ token: "baska" });
    for (const body of ['{"id":"1","status":"unfulfilled"}', "{}", '{"note":"Kargo: İstanbul"}']) {
      const sig = createHmac("sha256", token).update(body).digest("hex");
      const cases: Array<[string, string | undefined]> = [
        [body, sig],
        [`${body} `, sig],
        [body, undefined],
        [body, sig.replace(/.$/, (c) => (c === "0" ? "1" : "0"))],
      ];
      for (const [raw, signature] of cases) {
        expect(verifyShopierWebhook(raw, signature, token)).toBe(hook.validate(raw, signature as string));
        expect(verifyShopierWebhook(raw, signature, "baska")).toBe(other.validate(raw, signature as string));
      }
      expect(verifyShopierWebhook(body, sig, token)).toBe(true);
    }
  });
});
