import { createShopConnector, InMemoryRateLimitStore } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { SANDBOX_SYSTEMS } from "../src/modules/sandbox/registry.ts";
import { fetchThroughApp } from "./sandbox-harness.ts";

describe("Shopify sandbox entry", () => {
  it("starts an emulator the Shopify connector reaches with the entry's credentials", async () => {
    const entry = SANDBOX_SYSTEMS.find((s) => s.system === "shopify");
    if (!entry) throw new Error("no shopify sandbox entry");
    expect([entry.kind, entry.type]).toEqual(["shop", 5]);
    const baseUrl = "http://127.0.0.1:1/sandbox/shopify/t1";
    const credentials = entry.credentials(baseUrl, (name) => `sekret-${name}`);
    const instance = await entry.start({ seed: 5, baseUrl, credentials, profile: "standard" });
    try {
      const fetchViaApp = fetchThroughApp(instance.app, "/sandbox/shopify/t1");
      const conn = createShopConnector(5, credentials, {
        companyId: "1",
        rateLimitStore: new InMemoryRateLimitStore(),
        fetch: fetchViaApp,
      });
      const info = await conn.testConnection();
      expect(info.description).toContain("deneme-magaza.myshopify.com");
      const orders = await conn.listOrders();
      expect(orders.items.length).toBeGreaterThan(0);
    } finally {
      await instance.close();
    }
  });
});
