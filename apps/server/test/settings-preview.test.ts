import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConnectedCompany, connectedCompany, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let c: ConnectedCompany;
let skus: string[];

beforeAll(async () => {
  t = await startTestApp();
  c = await connectedCompany(t, { erp: { productCount: 12 }, shop: { productCount: 0 } });
  for (const job of [
    "CategoryIntegration",
    "ProductIntegration",
    "PriceIntegration",
    "StockIntegration",
  ] as const) {
    expect((await runJob(t, c, job)).status).toBe("Succeeded");
  }
  skus = [...c.erp.state.stokByKod.keys()];
}, 90_000);

afterAll(async () => {
  await c?.close();
  await t?.close();
});

const preview = (job: string, token = c.token) =>
  call(t.app, "POST", `/api/settings/preview/${job}`, { token });

describe("run preview with guard rails", () => {
  it("shows nothing when nothing would change", async () => {
    const res = await preview("PriceIntegration");
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ total: 0, tripped: false });
    expect(res.body.data.message).toBe("Bir sonraki çalışmada değişecek kayıt yok.");
  });

  it("shows a price fall beyond the limit as tripped, and writes nothing", async () => {
    c.erp.state.setPrice(skus[0]!, 1, 1000);
    expect((await runJob(t, c, "PriceIntegration")).counts.written).toBe(1);
    c.erp.state.setPrice(skus[0]!, 1, 100);
    c.erp.state.setPrice(skus[1]!, 1, 5000);
    const first = await preview("PriceIntegration");
    expect(first.body.data).toMatchObject({ total: 2, flagged: 1, tripped: true, limitPercent: 30 });
    expect(first.body.data.rows[0].sku).toBe(skus[0]);
    expect(first.body.data.rows[0].before).toBeGreaterThan(first.body.data.rows[0].after * 5);
    expect(first.body.data.message).toContain("%30 sınırından fazla düşecek");
    // Nothing was written: the same preview again, and the real run writes both.
    expect((await preview("PriceIntegration")).body.data.total).toBe(2);
    expect((await runJob(t, c, "PriceIntegration")).counts.written).toBe(2);

    // A looser limit set by the user: the same fall passes.
    c.erp.state.setPrice(skus[1]!, 1, 4000);
    await call(t.app, "POST", "/api/settings", {
      token: c.token,
      body: { settings: [{ key: "priceGuardMaxDropPercent", value: 50 }] },
    });
    expect((await preview("PriceIntegration")).body.data).toMatchObject({ total: 1, tripped: false });
  });

  it("trips when too many items would go to zero stock", async () => {
    for (const sku of skus.slice(0, 6)) {
      c.erp.state.setStock(sku, 1, 0);
      c.erp.state.setStock(sku, 2, 0);
    }
    const res = await preview("StockIntegration");
    expect(res.status).toBe(200);
    expect(res.body.data.tripped).toBe(true);
    expect(res.body.data.flagged).toBeGreaterThan(0);
    expect(res.body.data.rows[0].after).toBe(0);
    expect(res.body.data.message).toContain("0 stoğa inecek");
  });

  it("refuses other jobs and companies without connections", async () => {
    expect((await preview("OrderIntegration")).status).toBe(400);
    const other = (await registerAndLogin(t.app)).token;
    expect((await preview("StockIntegration", other)).status).toBe(409);
  });
});
