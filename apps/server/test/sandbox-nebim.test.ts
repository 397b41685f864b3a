import { createErpConnector, InMemoryRateLimitStore } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { SANDBOX_SYSTEMS } from "../src/modules/sandbox/registry.ts";

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
      // The host mounts the app under baseUrl; here requests are handed to it directly.
      const fetchViaApp: typeof fetch = async (input, init) => {
        const url = new URL(String(input));
        const res = await instance.app.inject({
          method: (init?.method ?? "GET") as "POST",
          url: url.pathname.replace(prefix, "") + url.search,
          headers: init?.headers as Record<string, string>,
          payload: init?.body as string | undefined,
        });
        return new Response(res.body, {
          status: res.statusCode,
          headers: { "content-type": String(res.headers["content-type"] ?? "") },
        });
      };
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
