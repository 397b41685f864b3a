import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AgentStore } from "@ep/agent";
import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileImports } from "../src/modules/file-exchange/schema.ts";
import { agentProcess, RELAYED_CONNECTOR_TIMEOUT } from "./agent-harness.ts";
import { connectedCompanyWithErp, runJob } from "./engine/engine-harness.ts";
import { call, until as pollUntil, startTestApp, type TestApp } from "./harness.ts";

/** Rows of the file the agent is killed sending (the size: FILES_KILL_ROWS=200000, ~7 MB). */
const KILL_ROWS = Number(process.env.FILES_KILL_ROWS ?? 20_000);

let t: TestApp;
let server: string;
beforeAll(async () => {
  t = await startTestApp({ ...RELAYED_CONNECTOR_TIMEOUT, CAPTCHA: "off" });
  server = await t.app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(() => t.close());

/** The agent's file work is polled closely: a minute at most, every 50 ms. */
const until = <T>(what: string, probe: () => T | undefined | false, timeoutMs = 60_000) =>
  pollUntil(what, probe, timeoutMs, 50);

const imports = (companyId: number) =>
  t.ctx.database.db
    .select()
    .from(fileImports)
    .where(and(eq(fileImports.companyId, companyId), eq(fileImports.direction, "in")));

describe("the agent's watched folders feed the sync", () => {
  it("imports a dropped CSV and XLSX, moves them to islenen/ with a per-row result, and the sync moves the products", async () => {
    const c = await connectedCompanyWithErp(
      t,
      { systemType: 14, credentials: { sqlDialect: "firebird" }, close: async () => undefined },
      { seed: 71 },
    );
    const root = mkdtempSync(join(tmpdir(), "ep-files-"));
    const [products, prices, outbox] = ["urunler", "fiyatlar", "giden"].map((d) => join(root, d)) as [
      string,
      string,
      string,
    ];
    const agent = await agentProcess(t, server, c.token, (home) =>
      new AgentStore(home).saveFolders([
        { path: products, kind: "products", outbox },
        { path: prices, kind: "prices", outbox: null },
      ]),
    );
    try {
      for (const d of [products, prices]) mkdirSync(d, { recursive: true });
      await agent.start();
      writeFileSync(
        join(products, "urunler.csv"),
        "sku;name;vat\nAGT-001;Klasör Kalem;20\nAGT-002;Klasör Defter;10\nAGT-003;;20\n",
      );
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet("Fiyat");
      ws.addRow(["sku", "price"]);
      ws.addRow(["AGT-001", 12.5]);
      ws.addRow(["AGT-002", 30]);
      writeFileSync(join(prices, "fiyat.xlsx"), Buffer.from(await wb.xlsx.writeBuffer()));

      await until(
        "both files processed",
        () =>
          existsSync(join(products, "islenen", "urunler.csv")) &&
          existsSync(join(prices, "islenen", "fiyat.xlsx")),
      );
      expect(readdirSync(products).filter((n) => n.endsWith(".csv"))).toEqual([]);
      const result = readFileSync(join(products, "islenen", "urunler.csv.sonuc.csv"), "utf8");
      expect(result).toContain("AGT-001;kabul");
      expect(result).toContain("4;AGT-003;red;name boş.");
      const kept = await imports(c.companyId);
      expect(kept.map((k) => [k.kind, k.source, k.rowsAccepted, k.rowsRejected]).sort()).toEqual([
        ["prices", "agent", 2, 0],
        ["products", "agent", 2, 1],
      ]);

      const run = await runJob(t, c, "ProductIntegration");
      expect(run.report).toContain("Ürün dosyadan okundu: urunler.csv (izlenen klasörden");
      const variant = (sku: string) => {
        const ids = c.shop.state.skuIndex.get(sku);
        return ids ? c.shop.state.findVariant(ids[0], ids[1]) : undefined;
      };
      expect(variant("AGT-001")).toBeDefined();
      expect(variant("AGT-002")).toBeDefined();
      const priced = await runJob(t, c, "PriceIntegration");
      expect(priced.report).toContain("Fiyat dosyadan okundu: fiyat.xlsx");
      expect(variant("AGT-001")!.prices.find((p) => !p.priceListId)?.sellPrice).toBe(12.5);

      // The panel sees the folders as the agent reported them.
      const { connections } = engineSchema;
      const [erp] = await t.ctx.database.db
        .select({ id: connections.id })
        .from(connections)
        .where(and(eq(connections.companyId, c.companyId), eq(connections.kind, "erp")));
      const connectionId = erp!.id;
      const status = await call(t.app, "GET", `/api/settings/file-exchange/${connectionId}`, {
        token: c.token,
      });
      expect(status.body.data.folders).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: products, kind: "products", outbox, online: true, readable: true }),
          expect.objectContaining({ path: prices, kind: "prices", lastFile: "fiyat.xlsx" }),
        ]),
      );

      // Orders out: the run's orders file lands in the outbox folder.
      c.shop.generateOrders(2);
      const orders = await runJob(t, c, "OrderIntegration");
      expect(orders.counts.written).toBe(2);
      const dropped = await until("the orders file in the outbox", () => {
        const names = existsSync(outbox)
          ? readdirSync(outbox).filter((n) => n.startsWith("siparisler-"))
          : [];
        return names.length ? names : undefined;
      });
      expect(dropped).toHaveLength(1);
      // The agent's receipt marks it delivered.
      const overview = async () =>
        (await call(t.app, "GET", `/api/settings/file-exchange/${connectionId}`, { token: c.token })).body
          .data;
      let out = (await overview()).orders[0];
      for (let i = 0; i < 100 && !out.deliveredAt; i++) {
        await new Promise((r) => setTimeout(r, 50));
        out = (await overview()).orders[0];
      }
      expect(out).toMatchObject({ fileName: dropped[0], rowsAccepted: 2 });
      expect(out.deliveredAt).not.toBeNull();

      // A file that cannot be read goes to hatali/ with the reason; nothing is kept.
      writeFileSync(join(products, "bozuk.csv"), "sku;name\nA-1;Kalem;fazla;sutun\n");
      await until("the unreadable file rejected", () => existsSync(join(products, "hatali", "bozuk.csv")));
      expect(readFileSync(join(products, "hatali", "bozuk.csv.sonuc.csv"), "utf8")).toContain(
        "Dosya okunamadı",
      );
      expect(await imports(c.companyId)).toHaveLength(2);

      // Agent down while an order run writes its file: it reaches the outbox when the agent is back.
      await agent.kill();
      c.shop.generateOrders(1);
      const offline = await runJob(t, c, "OrderIntegration");
      expect(offline.counts.written).toBe(1);
      const waiting = (await overview()).orders.find((o: { deliveredAt: string | null }) => !o.deliveredAt);
      expect(waiting).toBeDefined();
      await agent.start();
      await until("the waiting orders file in the outbox", () => existsSync(join(outbox, waiting.fileName)));
    } finally {
      await agent.kill();
      await c.close();
    }
    // Its own waits allow a minute each: on a loaded 2-core box (CI's lanes) 30 s cut them short.
  }, 180_000);

  it("an agent killed while sending sends again on restart, and the file is imported exactly once", async () => {
    const c = await connectedCompanyWithErp(
      t,
      { systemType: 12, credentials: { sqlDialect: "firebird" }, close: async () => undefined },
      { seed: 72 },
    );
    const folder = mkdtempSync(join(tmpdir(), "ep-files-kill-"));
    const agent = await agentProcess(t, server, c.token, (home) =>
      new AgentStore(home).saveFolders([{ path: folder, kind: "stock", outbox: null }]),
    );
    const log = () => {
      const file = join(agent.home, "agent.log");
      return existsSync(file) ? readFileSync(file, "utf8") : "";
    };
    const sends = () =>
      log()
        .split("\n")
        .filter((l) => l.includes("sending stok-buyuk.csv")).length;
    try {
      await agent.start();
      const lines = ["sku;warehouse;quantity"];
      for (let i = 0; i < KILL_ROWS; i++) lines.push(`STK-${String(i).padStart(6, "0")};MERKEZ;${i % 97}`);
      writeFileSync(join(folder, "stok-buyuk.csv"), `${lines.join("\n")}\n`);
      await until("the first send", () => sends() === 1);
      await agent.kill();
      // Killed before any answer: the file is still there, nothing moved.
      expect(existsSync(join(folder, "stok-buyuk.csv"))).toBe(true);

      await agent.start();
      await until(
        "the file processed after the restart",
        () => existsSync(join(folder, "islenen", "stok-buyuk.csv")),
        240_000,
      );
      expect(sends()).toBe(2);
      const kept = await imports(c.companyId);
      expect(kept).toHaveLength(1);
      expect(kept[0]).toMatchObject({
        kind: "stock",
        source: "agent",
        rowsAccepted: KILL_ROWS,
        rowsRejected: 0,
      });
    } finally {
      await agent.kill();
      await c.close();
    }
    // Its own waits allow a minute each: on a loaded 2-core box (CI's lanes) 30 s cut them short.
  }, 180_000);
});
