import { engineSchema, pendingOrderQuantities } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../harness.ts";
import { connectedCompany, runJob } from "./engine-harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(() => t.close());

/**
 * A shop order cancelled before it reached the ERP (issue 37, the path every channel shares): recorded
 * once, never written to Mikro afterwards, and no longer holding stock.
 */
describe("an order cancelled before it reached the ERP", () => {
  it("is recorded once, holds no stock, and is never written to the ERP", async () => {
    const c = await connectedCompany(t, { seed: 43 });
    try {
      const [kept, cancelled] = c.shop.generateOrders(2);
      // Mikro refuses every order for now: both stay waiting (not in the ERP).
      c.erp.setFaults({ queue: [{ kind: "5xx", operation: "SiparisKaydetV2", times: 100_000 }] });
      await runJob(t, c, "OrderIntegration");
      const db = t.ctx.database.db;
      const { orderLedger } = engineSchema;
      const row = async (no: string) =>
        (
          await db
            .select()
            .from(orderLedger)
            .where(and(eq(orderLedger.companyId, c.companyId), eq(orderLedger.orderNo, no)))
        )[0];
      const waiting = await row(cancelled!.orderNumber);
      expect(waiting?.state).not.toBe("confirmed");
      const sku = String((waiting!.payload as { lines: { sku: string }[] }).lines[0]?.sku);
      const pendingBefore = (await pendingOrderQuantities(db, c.companyId, [sku])).get(sku) ?? 0;
      expect(pendingBefore).toBeGreaterThan(0);

      // The customer cancels; the shop says so on its next change.
      cancelled!.orderPackageStatus = "CANCELLED";
      cancelled!.updatedAt = Date.now() + 1_000;
      c.erp.setFaults({});
      for (let i = 0; i < 2; i++) await runJob(t, c, "OrderIntegration");
      const r = await row(cancelled!.orderNumber);
      expect(r).toMatchObject({
        returnKind: "cancel",
        returnState: "not_in_erp",
        channelStatus: "CANCELLED",
      });
      expect((await pendingOrderQuantities(db, c.companyId, [sku])).get(sku) ?? 0).toBeLessThan(
        pendingBefore,
      );
      const refs = new Set(c.erp.state.table("SIPARISLER").rows.map((x) => String(x.sip_belgeno)));
      expect(refs.has(cancelled!.orderNumber)).toBe(false);
      // The other order went on to Mikro once the ERP took orders again.
      expect(refs.has(kept!.orderNumber)).toBe(true);
      expect((await row(kept!.orderNumber))?.returnKind).toBeNull();
    } finally {
      await c.close();
    }
  });
});
