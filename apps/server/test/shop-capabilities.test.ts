/**
 * Shops that cannot do every job (T-Soft, Sentos, Sopyo): the engine refuses such a job before any call
 * with the connector's Turkish reason, and their built-in sandboxes answer their connectors.
 */

import {
  createShopConnector,
  InMemoryRateLimitStore,
  ikasDescriptor,
  mountEmulators,
  sentosDescriptor,
  sopyoDescriptor,
  tsoftDescriptor,
} from "@ep/connectors";
import { failureText, unsupportedJob } from "@ep/engine";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { SANDBOX_SYSTEMS, type SandboxInstance } from "../src/modules/sandbox/registry.ts";

describe("jobs a shop cannot do", () => {
  const shop = (system: string) => SANDBOX_SYSTEMS.find((s) => s.system === system);

  it("are refused with the connector's Turkish reason; order transfer still runs", () => {
    const stock = unsupportedJob("StockIntegration", sentosDescriptor);
    expect(stock?.reason).toBe("unsupported");
    expect(failureText(stock)).toContain("Sentos bu görevi yapamıyor");
    expect(failureText(stock)).toContain("yalnızca ürünleri, depoları ve siparişleri okur");
    expect(unsupportedJob("OrderIntegration", sentosDescriptor)).toBeUndefined();
    expect(unsupportedJob("PriceIntegration", sopyoDescriptor)?.merchantMessage).toContain("Sopyo");
    // T-Soft writes products, stock and prices; it cannot attach invoices.
    expect(unsupportedJob("StockIntegration", tsoftDescriptor)).toBeUndefined();
    expect(unsupportedJob("InvoiceIntegration", tsoftDescriptor)?.merchantMessage).toContain("Tsoft");
    expect(unsupportedJob("StockIntegration", ikasDescriptor)).toBeUndefined();
    expect(shop("sentos")?.type).toBe(3);
  });
});

describe("T-Soft, Sentos and Sopyo sandboxes", () => {
  let parent: FastifyInstance | undefined;
  const started: SandboxInstance[] = [];
  afterAll(async () => {
    await parent?.close();
    for (const s of started) await s.close();
  });

  it("answer their connectors at /sandbox/{system}/{tenant}", async () => {
    parent = Fastify();
    const apps = new Map<string, FastifyInstance>();
    for (const system of ["tsoft", "sentos", "sopyo"]) {
      await mountEmulators(parent, {
        prefix: `/sandbox/${system}`,
        resolve: async (tenant) => apps.get(`${system}/${tenant}`),
      });
    }
    const address = await parent.listen({ port: 0, host: "127.0.0.1" });
    for (const system of ["tsoft", "sentos", "sopyo"]) {
      const entry = SANDBOX_SYSTEMS.find((s) => s.system === system);
      if (!entry) throw new Error(`no sandbox ${system}`);
      const baseUrl = `${address}/sandbox/${system}/c1-test`;
      const credentials = entry.credentials(baseUrl, (name) => `${system}-${name}-secret`);
      const instance = await entry.start({ seed: 11, baseUrl, credentials, profile: "standard" });
      started.push(instance);
      apps.set(`${system}/c1-test`, instance.app);
      const connector = createShopConnector(entry.type, credentials, {
        companyId: "c1",
        rateLimitStore: new InMemoryRateLimitStore(),
      });
      expect((await connector.testConnection()).ok, system).toBe(true);
      expect((await connector.listOrders()).items.length, system).toBeGreaterThan(0);
    }
  });
});
