import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany, runJob } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: 41, erp: { productCount: 20 }, shop: { productCount: 15 } });
}, 60_000);
afterAll(async () => {
  await c?.close();
  await t?.close();
});

describe("a record the ERP lists but its connector cannot read", () => {
  it("is that record's failed task, in the connector's Turkish words; the rest of the catalogue moves", async () => {
    // A Mikro stock card whose VAT pointer is not in VergiListesiV2 (someone deleted the tax row).
    const card = c.erp.state.table("STOKLAR").rows.find((r) => r.sto_kod === "STK-000002");
    expect(card).toBeDefined();
    card!.sto_perakende_vergi = 99;

    const run = await runJob(t, c, "ProductIntegration");
    expect(run.status, run.report).toBe("PartiallyFailed");
    expect(run.counts.failed).toBe(1);
    const tasks = (
      await call(t.app, "GET", "/api/JobErrorReport/1/50/ProductIntegration?status=Open", {
        token: c.token,
      })
    ).body.data.dataList as Array<{ entityKey: string; errorType: string; message: string }>;
    expect(tasks.map((x) => x.entityKey)).toEqual(["STK-000002"]);
    expect(tasks[0]!.errorType).toBe("config");
    expect(tasks[0]!.message).toContain("vergi tablosunda olmayan bir KDV işaretçisi (99)");
    // The other cards were read and moved.
    expect(run.counts.read).toBeGreaterThan(1);
  }, 120_000);
});
