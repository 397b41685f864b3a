import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany, runJob, waitForRun } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  c = await connectedCompany(t, { seed: 31, erp: { productCount: 40 }, shop: { productCount: 40 } });
});
afterAll(async () => {
  await c.close();
  await t.close();
});

const openTasks = async () =>
  (await call(t.app, "GET", "/api/JobErrorReport/1/50/PriceIntegration?status=Open", { token: c.token })).body
    .data.dataList as Array<{ id: number; entityKey: string; message: string; last_seen_date: string }>;

async function retry(ids: number[]) {
  const res = await call(t.app, "POST", "/api/JobErrorReport/retry", {
    token: c.token,
    body: { jobErrorIdList: ids },
  });
  expect(res.status).toBe(200);
  return waitForRun(t, c.token, res.body.data.runIds[0]);
}

describe("a retry updates every task it retried (issue 40: a retried task stayed 'Açık' with its old date)", () => {
  it("resolves a task whose record is already in step, and dates and explains one it could not move", async () => {
    const sku = [...c.shop.state.skuIndex.keys()][3]!;
    c.erp.state.setPrice(sku, 1, 55.5);
    const first = await runJob(t, c, "PriceIntegration");
    expect(first.status).toBe("Succeeded");
    // A bad price fails; then the ERP is put back as it was, which the shop already shows.
    c.erp.state.setPrice(sku, 1, -10);
    expect((await runJob(t, c, "PriceIntegration")).status).toBe("PartiallyFailed");
    c.erp.state.setPrice(sku, 1, 55.5);
    // And a task left from an older run, for a record the ERP no longer has.
    const [job] = await t.ctx.database.db
      .select()
      .from(engineSchema.jobs)
      .where(
        and(eq(engineSchema.jobs.companyId, c.companyId), eq(engineSchema.jobs.type, "PriceIntegration")),
      );
    const old = new Date(Date.now() - 3 * 86_400_000);
    await t.ctx.database.db.insert(engineSchema.jobErrorReports).values({
      companyId: c.companyId,
      jobId: job!.id,
      jobType: "PriceIntegration",
      jobRunId: first.id,
      entityKey: "ERP-DE-YOK-1",
      errorType: "validation",
      message: "Eski hata",
      createdAt: old,
      lastSeenAt: old,
    });
    const tasks = await openTasks();
    expect(tasks.map((x) => x.entityKey).sort()).toEqual(["ERP-DE-YOK-1", sku].sort());

    const run = await retry(tasks.map((x) => x.id));
    expect(run.status).toBe("Succeeded");
    const left = await openTasks();
    // In step already: resolved. Gone from the ERP: still open, with the retry's time and what it means.
    expect(left.map((x) => x.entityKey)).toEqual(["ERP-DE-YOK-1"]);
    expect(new Date(left[0]!.last_seen_date).getTime()).toBeGreaterThan(old.getTime() + 86_400_000);
    expect(left[0]!.message).toContain("Yeniden denendi");
  }, 60_000);
});
