/**
 * Sentos's GET limit on the database rate limiter every worker shares (PgRateLimitStore): sources read
 * "GET twice a minute" per URL or over all GETs (packages/connectors/src/sentos/judge/rules.ts). Under
 * either reading the connector reads everything, and under the stricter one it meets at most one 429.
 */
import { createSentosConnector, type SentosGetLimitReading, startSentosEmulator } from "@ep/connectors";
import { PgRateLimitStore } from "@ep/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(async () => {
  await t.close();
});

const WINDOW = 600;

describe("Sentos's GET limit on the database rate limiter", () => {
  for (const reading of ["identical", "all"] as SentosGetLimitReading[]) {
    it(`reads every order when the service counts GETs ${reading === "all" ? "over all URLs" : "per URL"}`, async () => {
      const emu = await startSentosEmulator({
        seed: 9,
        productCount: 300,
        orderCount: 40,
        windowMs: WINDOW,
        getLimit: reading,
      });
      try {
        const shop = createSentosConnector(emu.credentials, {
          companyId: `sentos-pg-${reading}`,
          rateLimitStore: new PgRateLimitStore(t.ctx.database.db),
          budget: { requests: 12, windowMs: WINDOW },
          timeoutMs: 2000,
          retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5000 },
        });
        await shop.testConnection();
        await shop.findProductsBySku(["YOK"]);
        let orders = 0;
        let token: string | undefined;
        do {
          const page = await shop.listOrders({ pageToken: token });
          orders += page.items.length;
          token = page.nextPageToken;
        } while (token);
        expect(orders).toBe(40);
        expect(emu.counters.rateLimitViolations).toBeLessThanOrEqual(reading === "all" ? 1 : 0);
      } finally {
        await emu.close();
      }
    });
  }
});
