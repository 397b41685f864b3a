import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, startTestApp, type TestApp } from "../harness.ts";
import { type ConnectedCompany, connectedCompany, runJob, waitForRun } from "./engine-harness.ts";

let t: TestApp;
let c: ConnectedCompany;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  // Mikro and IKAS seed the same STK- codes, as in the reproduction.
  c = await connectedCompany(t, { erp: { productCount: 30 }, shop: { productCount: 25 } });
}, 60_000);
afterAll(async () => {
  await c?.close();
  await t?.close();
});

const api = (method: "GET" | "POST" | "DELETE", url: string, body?: unknown, token = c.token) =>
  call(t.app, method, url, { token, body });

const openTasks = async (jobType: string) =>
  (await api("GET", `/api/JobErrorReport/1/50/${jobType}?status=Open`)).body.data.dataList as Array<{
    id: number;
    entityKey: string;
    errorType: string;
    message: string;
  }>;

const shopStock = (sku: string) => {
  const [productId, variantId] = c.shop.state.skuIndex.get(sku)!;
  const location = c.shop.state.stockLocations[0]!.id;
  return c.shop.state.findVariant(productId, variantId)!.stocks.find((s) => s.stockLocationId === location)
    ?.stockCount;
};

/** Nothing a merchant reads may carry SQL, the ledger's internals or driver text. */
const TECHNICAL = /sync_ledger|insert into|duplicate key|on conflict|ECONN|fetch failed|\bat \w+ \(/i;

describe("an ERP matching never stops a company's sync (issue 11, defect 1)", () => {
  it("a matching saved before the first sync costs one failed task per job, not the runs", async () => {
    const matched = await api("POST", "/api/ErpMatching", { erpSku: "ZZZ-MANUEL-1", shopSku: "STK-000001" });
    expect(matched.status).toBe(200);

    for (const type of ["StockIntegration", "PriceIntegration", "ProductIntegration"] as const) {
      const run = await runJob(t, c, type);
      expect(run.status, `${type}: ${run.report}`).toBe("PartiallyFailed");
      expect(run.counts.failed, type).toBe(1);
      expect(run.report).not.toMatch(TECHNICAL);
      const [task, ...more] = await openTasks(type);
      expect(more, type).toEqual([]);
      expect(task!.errorType).toBe("binding_conflict");
      expect(task!.message).toContain("STK-000001");
      expect(task!.message).toContain("ZZZ-MANUEL-1");
      expect(task!.message).toContain("ERP Eşleştirmeleri");
      expect(task!.message).not.toMatch(TECHNICAL);
    }
    // The rest moved: another shared code got its stock and price.
    const other = "STK-000002";
    expect(shopStock(other)).toBe(
      Math.max(0, c.erp.state.quantity(other, 1) + c.erp.state.quantity(other, 2)),
    );
    const notifications = (await api("GET", "/api/Notification/1/20")).body.data.dataList as Array<{
      notification_Text: string;
    }>;
    expect(notifications.length).toBeGreaterThanOrEqual(3);
    for (const n of notifications) expect(n.notification_Text).not.toMatch(TECHNICAL);
  });

  it("a manual retry runs; once the matching is removed the retry moves the record", async () => {
    const [task] = await openTasks("StockIntegration");
    const again = await api("POST", "/api/JobErrorReport/retry", { jobErrorIdList: [task!.id] });
    expect(again.status).toBe(200);
    const stillHeld = await waitForRun(t, c.token, again.body.data.runIds[0]);
    expect(stillHeld.status).toBe("PartiallyFailed");
    expect(stillHeld.counts.failed).toBe(1);

    const matchings = (await api("GET", "/api/ErpMatching")).body.data as Array<{ id: number }>;
    expect((await api("DELETE", `/api/ErpMatching/${matchings[0]!.id}`)).status).toBe(200);
    const retried = await api("POST", "/api/JobErrorReport/retry", { jobErrorIdList: [task!.id] });
    const run = await waitForRun(t, c.token, retried.body.data.runIds[0]);
    expect(run.status, run.report).toBe("Succeeded");
    expect(run.counts.written).toBe(1);
    expect(shopStock("STK-000001")).toBe(
      Math.max(0, c.erp.state.quantity("STK-000001", 1) + c.erp.state.quantity("STK-000001", 2)),
    );
    expect(await openTasks("StockIntegration")).toEqual([]);
  });

  it("refuses at save time a matching to a shop product already bound to another ERP code", async () => {
    // STK-000003 was bound to the shop's STK-000003 by the runs above.
    const refused = await api("POST", "/api/ErpMatching", { erpSku: "ZZZ-MANUEL-3", shopSku: "STK-000003" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "Bu mağaza ürünü ERP'deki başka bir stok koduna zaten bağlı. Bir mağaza ürünü yalnızca bir ERP ürünüyle eşleşebilir: başka bir mağaza ürünü seçiniz.",
    );
    expect(refused.body.data).toEqual({ boundErpSku: "STK-000003" });
    const imported = await api("POST", "/api/ErpMatching/import", { csv: "ZZZ-MANUEL-4;STK-000004" });
    expect(imported.body.data.accepted).toBe(0);
    expect(imported.body.data.rows[0].reason).toBe(
      "Mağazadaki STK-000004 ürünü ERP'deki STK-000004 koduna zaten bağlı; bir mağaza ürünü yalnızca bir ERP ürünüyle eşleşebilir.",
    );
    // Nothing was taken over: the next stock run still has nothing to fix.
    expect((await api("GET", "/api/ErpMatching")).body.data).toEqual([]);
    const run = await runJob(t, c, "StockIntegration");
    expect(run.status).toBe("Succeeded");
  });
});
