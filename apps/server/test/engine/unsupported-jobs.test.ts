import { type ShopConnector, sentosDescriptor } from "@ep/connectors";
import { type EngineDeps, engineSchema, executeRun } from "@ep/engine";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, type TestApp } from "../harness.ts";
import { connectedCompany, queueStockRun, useEngineTestApp } from "./engine-harness.ts";

let t: TestApp;
const companies = useEngineTestApp((app) => (t = app));

describe("a job the shop connector declares it cannot do", () => {
  it("is refused before any call, with the connector's Turkish reason", async () => {
    const c = await connectedCompany(t, { seed: 47, erp: { productCount: 10 }, shop: { productCount: 10 } });
    companies.push(c);
    const host = t.ctx.engine.deps;
    let shopCalls = 0;
    let erpCalls = 0;
    const deps: EngineDeps = {
      ...host,
      openConnectors: async (companyId, counter) => {
        const opened = await host.openConnectors(companyId, counter);
        // The company's shop as a read-only one (Sentos's descriptor): every call is counted.
        const shop = new Proxy(opened.shop, {
          get(target, key, receiver) {
            if (key === "descriptor") return sentosDescriptor;
            const value = Reflect.get(target, key, receiver);
            return typeof value === "function"
              ? (...args: unknown[]) => {
                  shopCalls++;
                  return value.apply(target, args);
                }
              : value;
          },
        }) as ShopConnector;
        const erp = new Proxy(opened.erp, {
          get(target, key, receiver) {
            const value = Reflect.get(target, key, receiver);
            return typeof value === "function"
              ? (...args: unknown[]) => {
                  erpCalls++;
                  return value.apply(target, args);
                }
              : value;
          },
        });
        return { ...opened, shop, erp };
      },
    };
    const db = t.ctx.database.db;
    const queued = await queueStockRun(t, c);
    expect(await executeRun(deps, queued.id)).toBe("Failed");
    expect(shopCalls).toBe(0);
    expect(erpCalls).toBe(0);
    const [run] = await db.select().from(engineSchema.jobRuns).where(eq(engineSchema.jobRuns.id, queued.id));
    expect(run!.report).toContain("Sentos bu görevi yapamıyor: Sentos için doğrulanmış bir yazma yolu yok");
    expect(run!.failureReason).toBe("unsupported");
    expect(run!.failureSide).toBe("shop");
    const notes = (await call(t.app, "GET", "/api/Notification/1/20", { token: c.token })).body.data
      .dataList as Array<{ notification_Text: string }>;
    expect(notes[0]?.notification_Text).toContain("Görev çalıştırılmadı");
  }, 60_000);
});
