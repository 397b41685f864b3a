import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany, runJob } from "./engine-harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(() => t.close());

/** ERP documents per shop order number, read straight from the emulated Mikro tables. */
function erpDocumentsByOrder(c: ConnectedCompany): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const row of c.erp.state.table("SIPARISLER").rows) {
    const ref = String(row.sip_belgeno);
    const docs = out.get(ref) ?? new Set<string>();
    docs.add(`${row.sip_evrakno_seri}-${row.sip_evrakno_sira}`);
    out.set(ref, docs);
  }
  return out;
}

async function ledger(c: ConnectedCompany) {
  return t.ctx.database.db
    .select()
    .from(engineSchema.orderLedger)
    .where(eq(engineSchema.orderLedger.companyId, c.companyId));
}

describe("OrderIntegration", () => {
  it("moves every new shop order into the ERP once, and a second run writes nothing", async () => {
    const c = await connectedCompany(t, { seed: 31 });
    try {
      const orders = c.shop.generateOrders(12);
      const run = await runJob(t, c, "OrderIntegration");
      expect(run.status).toBe("Succeeded");
      expect(run.counts.written).toBe(12);
      const docs = erpDocumentsByOrder(c);
      for (const o of orders) expect(docs.get(o.orderNumber)?.size, o.orderNumber).toBe(1);
      const rows = await ledger(c);
      expect(rows.map((r) => r.state)).toEqual(Array(12).fill("confirmed"));
      expect(new Set(rows.map((r) => r.erpDocumentId)).size).toBe(12);

      const again = await runJob(t, c, "OrderIntegration");
      expect(again.calls.erp.write).toBe(0);
      expect(again.counts.written).toBe(0);
    } finally {
      await c.close();
    }
  });

  it("keeps every order exactly once through 5xx, timeouts, 429 bursts and writes whose answer is lost", async () => {
    const c = await connectedCompany(t, { seed: 37 });
    try {
      const orders = c.shop.generateOrders(40);
      const faults = {
        rate5xx: 0.1,
        timeoutRate: 0.05,
        rate429: 0.05,
        dropAfterWriteRate: 0.1,
        hangMs: 1500,
        retryAfterSeconds: 0,
      };
      c.erp.setFaults(faults);
      c.shop.setFaults({
        rate5xx: 0.1,
        timeoutRate: 0.05,
        rate429: 0.05,
        hangMs: 1500,
        retryAfterSeconds: 0,
      });
      let confirmed = 0;
      for (let round = 0; round < 15 && confirmed < orders.length; round++) {
        await runJob(t, c, "OrderIntegration", 120_000);
        confirmed = (await ledger(c)).filter((r) => r.state === "confirmed").length;
      }
      c.erp.setFaults({});
      c.shop.setFaults({});
      await runJob(t, c, "OrderIntegration");
      const rows = await ledger(c);
      expect(rows.length).toBe(orders.length);
      expect(rows.every((r) => r.state === "confirmed")).toBe(true);
      const docs = erpDocumentsByOrder(c);
      for (const o of orders) expect(docs.get(o.orderNumber)?.size, o.orderNumber).toBe(1);
      expect(c.erp.counters.faults.dropAfterWrite + c.erp.counters.faults["5xx"]).toBeGreaterThan(0);
    } finally {
      await c.close();
    }
  }, 240_000);
});

describe("company scoping of the job API", () => {
  it("gives a company nothing of another company's jobs, runs and failed tasks", async () => {
    const a = await connectedCompany(t, { seed: 41 });
    const b = await connectedCompany(t, { seed: 43 });
    try {
      a.erp.state.setPrice(a.erp.state.table("STOKLAR").rows[0]!.sto_kod as string, 1, -1);
      await runJob(t, a, "ProductIntegration");
      const run = await runJob(t, a, "PriceIntegration");
      const failed = await call(t.app, "GET", "/api/JobErrorReport/1/10/PriceIntegration", {
        token: a.token,
      });
      const errorId = failed.body.data.dataList[0]?.id as number;
      expect(errorId).toBeGreaterThan(0);
      const jobId = a.jobId("PriceIntegration");

      const asB = (method: "GET" | "POST" | "PUT", url: string, body?: unknown) =>
        call(t.app, method, url, { token: b.token, body });
      expect((await asB("GET", `/api/Job/${jobId}`)).status).toBe(404);
      expect((await asB("PUT", "/api/job", { id: jobId, is_enabled: false })).status).toBe(404);
      expect((await asB("POST", `/api/Job/run-job?jobId=${jobId}`)).status).toBe(404);
      expect((await asB("GET", `/api/JobHistory/report/${run.id}`)).status).toBe(404);
      const history = await asB("GET", "/api/JobHistory?pageSize=100");
      expect(history.body.data.dataList.map((r: { id: number }) => r.id)).not.toContain(run.id);
      const types = await asB("GET", "/api/Job/type-filter/PriceIntegration,StockIntegration");
      expect(types.body.data.map((j: { id: number }) => j.id)).not.toContain(jobId);
      const bErrors = await asB("GET", "/api/JobErrorReport/1/10/PriceIntegration");
      expect(bErrors.body.data.totalCount).toBe(0);
      expect((await asB("POST", "/api/JobErrorReport/retry", { jobErrorIdList: [errorId] })).status).toBe(
        404,
      );
      const deleted = await asB("POST", "/api/JobErrorReport/delete", { jobErrorIdList: [errorId] });
      expect(deleted.body.data.deleted).toBe(0);
      // A's task is still there, and A can delete it.
      const stillThere = await call(t.app, "GET", "/api/JobErrorReport/1/10/PriceIntegration", {
        token: a.token,
      });
      expect(stillThere.body.data.totalCount).toBe(1);
      const own = await call(t.app, "POST", "/api/JobErrorReport/delete", {
        token: a.token,
        body: { jobErrorIdList: [errorId] },
      });
      expect(own.body.data.deleted).toBe(1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
