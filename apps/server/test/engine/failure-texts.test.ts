import { ConnectorError, type ErpConnector } from "@ep/connectors";
import { type EngineDeps, engineSchema, executeRun, failureText } from "@ep/engine";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { call, type TestApp } from "../harness.ts";
import {
  type ConnectedCompany,
  connectedCompany,
  queueStockRun,
  runJob,
  useEngineTestApp,
} from "./engine-harness.ts";

let t: TestApp;
const companies = useEngineTestApp((app) => (t = app));

/** SQL, driver and socket text, stack frames, addresses: none of it may reach the merchant. */
const TECHNICAL =
  /select |insert |update |sync_ledger|ECONN|fetch failed|127\.0\.0\.1|invalid byte|0x00|\bat \w+ \(|Error:/i;

const notificationsOf = async (c: ConnectedCompany) =>
  (
    (await call(t.app, "GET", "/api/Notification/1/20", { token: c.token })).body.data.dataList as Array<{
      notification_Text: string;
    }>
  ).map((n) => n.notification_Text);

describe("failures reach the merchant in Turkish, with the next step, and the detail stays in the log", () => {
  it("an ERP that refuses connections", async () => {
    const c = await connectedCompany(t, { seed: 41, erp: { productCount: 10 }, shop: { productCount: 10 } });
    companies.push(c);
    await c.erp.close();
    const run = await runJob(t, c, "StockIntegration");
    expect(run.status).toBe("Failed");
    const said =
      "Mikro sistemine bağlanılamadı. Bağlantı ayarlarını kontrol edip 'Bağlantıyı Test Et' ile deneyiniz.";
    expect(run.report).toContain(said);
    expect(run.report).not.toMatch(TECHNICAL);
    const [notification] = await notificationsOf(c);
    expect(notification).toBe(`Stok Güncelleme görevi başarısız oldu: ${said}`);
    const logged = t.logs.filter((l) => l.includes(`"runId":${run.id}`) && l.includes("run failed"));
    expect(logged.join("")).toContain('"reason":"network"');
    expect(logged.join("")).toContain("ECONNREFUSED");
  }, 60_000);

  it("a database error, without the statement or its values", async () => {
    const c = await connectedCompany(t, { seed: 43, erp: { productCount: 10 }, shop: { productCount: 10 } });
    companies.push(c);
    // A stock code PostgreSQL cannot store (a NUL byte) makes the ledger's query fail.
    const secret = "KISISEL-VERI-123";
    const host = t.ctx.engine.deps;
    const deps: EngineDeps = {
      ...host,
      openConnectors: async (companyId, counter) => {
        const opened = await host.openConnectors(companyId, counter);
        const erp: ErpConnector = Object.create(opened.erp);
        erp.listStock = async () => ({ items: [{ sku: `${secret}\u0000`, location: "1", qty: 3 }] });
        return { ...opened, erp };
      },
    };
    const db = t.ctx.database.db;
    const queued = await queueStockRun(t, c);
    expect(await executeRun(deps, queued.id)).toBe("Failed");
    const [run] = await db.select().from(engineSchema.jobRuns).where(eq(engineSchema.jobRuns.id, queued.id));
    const said =
      "Kayıtlar panelin veritabanına yazılırken bir sorun oluştu. Görev bir sonraki çalışmada yeniden denenecek; sorun sürerse destek ekibimize ticket açınız.";
    expect(run!.report).toContain(said);
    expect(run!.report).not.toMatch(TECHNICAL);
    expect(run!.report).not.toContain(secret);
    const [notification] = await notificationsOf(c);
    expect(notification).toBe(`Stok Güncelleme görevi başarısız oldu: ${said}`);
    const logged = t.logs.filter((l) => l.includes(`"runId":${queued.id}`)).join("");
    expect(logged).toContain('"statement":"select sync_ledger"');
    expect(logged).toContain('"sqlState":"22021"');
    // The log names the statement, never its values (personal data) nor its text.
    expect(logged).not.toContain(secret);
    expect(logged).not.toContain("connection_id");
  }, 60_000);

  it("quotes a record-level answer of the system only when it is plain text", () => {
    const names = { ikas: "IKAS" };
    const plain = new ConnectorError("x", {
      reason: "validation",
      system: "ikas",
      systemMessage: "Ürün adı boş olamaz",
    });
    expect(failureText(plain, names)).toBe(
      'IKAS bu kaydı kabul etmedi. Kaydın bilgilerini (ad, fiyat, barkod, KDV vb.) düzelttikten sonra Hatalı Görevler ekranından yeniden deneyiniz. Sistemin yanıtı: "Ürün adı boş olamaz"',
    );
    for (const systemMessage of [
      "INSERT INTO STOKLAR (sto_kod) VALUES ('A') failed: Violation of PRIMARY KEY constraint",
      '{"errors":[{"message":"bad"}]}',
      "connect ECONNREFUSED 10.0.0.5:443",
      "TypeError: x is undefined\n    at parse (/app/a.js:1:2)",
    ]) {
      const text = failureText(
        new ConnectorError("x", { reason: "validation", system: "ikas", systemMessage }),
        names,
      );
      expect(text).not.toContain("Sistemin yanıtı");
    }
    expect(failureText(new Error("something deep"))).toBe(
      "Görev beklenmeyen bir sorun nedeniyle tamamlanamadı. Bir sonraki çalışmada yeniden denenecek; sorun sürerse destek ekibimize ticket açınız.",
    );
  });
});
