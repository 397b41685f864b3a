import { createErpConnector, InMemoryRateLimitStore } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { SANDBOX_SYSTEMS } from "../src/modules/sandbox/registry.ts";
import { fetchThroughApp } from "./sandbox-harness.ts";

describe("Nebim sandbox entry", () => {
  it("starts an emulator the Nebim connector reaches with the entry's credentials (session in the URL)", async () => {
    const entry = SANDBOX_SYSTEMS.find((s) => s.system === "nebim");
    if (!entry) throw new Error("no nebim sandbox entry");
    expect([entry.kind, entry.type]).toEqual(["erp", 1]);
    const prefix = "/sandbox/nebim/t1";
    const baseUrl = `http://127.0.0.1:1${prefix}`;
    const credentials = entry.credentials(baseUrl, (name) => `sekret-${name}`);
    const instance = await entry.start({ seed: 5, baseUrl, credentials, profile: "standard" });
    try {
      const fetchViaApp = fetchThroughApp(instance.app, prefix);
      const ctx = { companyId: "1", rateLimitStore: new InMemoryRateLimitStore(), fetch: fetchViaApp };
      const conn = createErpConnector(1, credentials, ctx);
      expect((await conn.testConnection()).description).toContain("NEBIMV3");
      const products = await conn.listProducts();
      expect(products.items.flatMap((p) => p.variants)).toHaveLength(302);
      // Another tenant's password is refused by GetUserInfo.
      const wrong = createErpConnector(1, { ...credentials, password: "sekret-baska" }, ctx);
      await expect(wrong.testConnection()).rejects.toMatchObject({ reason: "auth" });
    } finally {
      await instance.close();
    }
  });
});
