import { readdir, stat } from "node:fs/promises";
import { engineSchema } from "@ep/engine";
import { parse as parseCsv } from "csv-parse/sync";
import { and, eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { uploadsFolder } from "../src/modules/connections/sql-preview-routes.ts";
import {
  type ConnectedCompany,
  connectedCompanyWithErp,
  runJob,
  waitForRun,
} from "./engine/engine-harness.ts";
import { call, startTestApp, type TestApp } from "./harness.ts";
import { uploadFile } from "./support/upload.ts";
import { farCellWorkbook } from "./xlsx-probes.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(() => t.close());

/** A system with no API (Gizsoft, 12): no query configured, files are its only source. */
const gizsoftByFiles = () => ({
  systemType: 12,
  credentials: { sqlDialect: "firebird" },
  close: async () => undefined,
});

type Company = ConnectedCompany<ReturnType<typeof gizsoftByFiles>>;

async function erpConnectionId(c: Company): Promise<number> {
  const { connections } = engineSchema;
  const [erp] = await t.ctx.database.db
    .select({ id: connections.id })
    .from(connections)
    .where(and(eq(connections.companyId, c.companyId), eq(connections.kind, "erp")));
  if (!erp) throw new Error("no erp connection");
  return erp.id;
}

const upload = (token: string, url: string, name: string, content: Buffer | string, type?: string) =>
  uploadFile(t, token, url, name, content, type);

const shopVariant = (c: Company, sku: string) => {
  const ids = c.shop.state.skuIndex.get(sku);
  return ids ? c.shop.state.findVariant(ids[0], ids[1]) : undefined;
};

const productsCsv = [
  "sku;name;vat;barcode",
  "DSY-001;Dosya Kalem;20;8690000000011",
  "DSY-002;Dosya Defter;10;8690000000028",
  ";Kodsuz Ürün;20;",
  "DSY-003;Dosya Silgi;20;8690000000035",
].join("\n");

describe("files as the source of a system with no API", () => {
  let c: Company;
  let connectionId: number;
  beforeAll(async () => {
    c = await connectedCompanyWithErp(t, gizsoftByFiles(), { seed: 61 });
    connectionId = await erpConnectionId(c);
  });
  afterAll(() => c.close());

  it("keeps an uploaded products file and the next sync moves its accepted rows into the shop", async () => {
    const up = await upload(
      c.token,
      `/api/settings/file-import/${connectionId}/products`,
      "urunler.csv",
      productsCsv,
    );
    expect(up.statusCode, up.body).toBe(200);
    const data = up.json().data;
    expect(data).toMatchObject({ status: "imported", usedForSync: true, accepted: 3, rejected: 1 });
    expect(data.rows[2]).toEqual({ row: 4, key: "?", accepted: false, reasons: ["sku boş."] });

    // The same file again is not kept twice.
    const again = await upload(
      c.token,
      `/api/settings/file-import/${connectionId}/products`,
      "kopya.csv",
      productsCsv,
    );
    expect(again.json().data).toMatchObject({ status: "duplicate", importId: data.importId });

    const run = await runJob(t, c, "ProductIntegration");
    // The rejected row is a failed task of the run: reported, not lost.
    expect(run.status, run.report).toBe("PartiallyFailed");
    expect(run.counts).toMatchObject({ read: 3, written: 3, failed: 1 });
    expect(run.report).toContain("Ürün dosyadan okundu: urunler.csv (panelden yüklendi");
    for (const sku of ["DSY-001", "DSY-002", "DSY-003"]) expect(shopVariant(c, sku), sku).toBeDefined();
    const failed = await call(t.app, "GET", "/api/JobErrorReport/1/10/ProductIntegration", {
      token: c.token,
    });
    expect(failed.body.data.dataList[0]).toMatchObject({ entityKey: "?", jobRunId: run.id });

    const overview = await call(t.app, "GET", `/api/settings/file-exchange/${connectionId}`, {
      token: c.token,
    });
    expect(overview.body.data.imports).toHaveLength(1);
    expect(overview.body.data.imports[0]).toMatchObject({
      kind: "products",
      fileName: "urunler.csv",
      source: "panel",
      rowsAccepted: 3,
      rowsRejected: 1,
      usedForSync: true,
    });
    const page = await call(
      t.app,
      "GET",
      `/api/settings/file-exchange/${connectionId}/${data.importId}/rows?page=2&pageSize=3`,
      { token: c.token },
    );
    expect(page.body.data).toEqual({
      total: 4,
      rows: [{ row: 5, key: "DSY-003", accepted: true, reasons: [] }],
    });
  });

  it("reads stock from an Excel file; the latest accepted file of a kind wins, a fully rejected one does not", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Stok");
    ws.addRow(["sku", "warehouse", "quantity"]);
    ws.addRow(["DSY-001", "MERKEZ", 7]);
    ws.addRow(["DSY-002", "MERKEZ", 4]);
    const xlsx = Buffer.from(await wb.xlsx.writeBuffer());
    const first = await upload(
      c.token,
      `/api/settings/file-import/${connectionId}/stock`,
      "stok.xlsx",
      xlsx,
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(first.json().data).toMatchObject({ accepted: 2, rejected: 0, usedForSync: true });
    // More rows than one page (500): the connector pages through the kept file.
    const filler = Array.from({ length: 1200 }, (_, i) => `YOK-${i};MERKEZ;1`).join("\n");
    const later = `sku;warehouse;quantity\nDSY-001;MERKEZ;11\n${filler}\nDSY-003;MERKEZ;5\n`;
    const second = await upload(
      c.token,
      `/api/settings/file-import/${connectionId}/stock`,
      "stok2.csv",
      later,
    );
    expect(second.json().data).toMatchObject({ accepted: 1202, usedForSync: true });
    const allBad = "sku;warehouse;quantity\nDSY-001;MERKEZ;çok\n";
    const bad = await upload(c.token, `/api/settings/file-import/${connectionId}/stock`, "bozuk.csv", allBad);
    expect(bad.json().data).toMatchObject({ accepted: 0, rejected: 1, usedForSync: false });

    const run = await runJob(t, c, "StockIntegration");
    expect(run.report).toContain("Stok dosyadan okundu: stok2.csv");
    expect(run.counts.read).toBe(1202);
    const location = c.shop.state.stockLocations[0]!.id;
    const qty = (sku: string) =>
      shopVariant(c, sku)!.stocks.find((s) => s.stockLocationId === location)?.stockCount ?? 0;
    expect(qty("DSY-001")).toBe(11);
    expect(qty("DSY-003")).toBe(5);
  });

  it("streams an upload to a private file for the reader: the event loop never holds the whole file", async () => {
    // 3 MB: a header of 101 columns (refused by the column cap) and filler rows.
    const header = Array.from({ length: 101 }, (_, i) => `k${i}`).join(";");
    const file = Buffer.from(
      `${header}\n${"SKU-1;aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\n".repeat(70_000)}`,
    );
    expect(file.length).toBeGreaterThan(3_000_000);
    const concat = vi.spyOn(Buffer, "concat");
    let res: Awaited<ReturnType<typeof upload>>;
    try {
      res = await upload(c.token, `/api/settings/file-import/${connectionId}/stock`, "genis.csv", file);
    } finally {
      concat.mockRestore();
    }
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/sütun/);
    // Before, the file part was gathered into one buffer of the file's size on the event loop.
    const assembled = concat.mock.results.map((r) => (Buffer.isBuffer(r.value) ? r.value.length : 0));
    expect(Math.max(0, ...assembled)).toBeLessThan(1024 * 1024);
    // The file went through a folder only this process's user can open, and is gone after the answer.
    const folder = await uploadsFolder();
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    await vi.waitFor(async () => expect(await readdir(folder)).toEqual([]));
  });

  it("refuses what it cannot read, in Turkish", async () => {
    const res = await upload(
      c.token,
      `/api/settings/file-import/${connectionId}/prices`,
      "fiyat.pdf",
      "%PDF-1.4",
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      "Dosya okunamadı: Excel (.xlsx), CSV veya XML olmalı, ilk satırı başlık.",
    );
    const big = Buffer.alloc(20 * 1024 * 1024 + 1, "a");
    const tooLarge = await upload(
      c.token,
      `/api/settings/file-import/${connectionId}/prices`,
      "fiyat.csv",
      big,
    );
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().message).toBe("Dosya çok büyük: en fazla 20 MB.");
    const far = await upload(
      c.token,
      `/api/settings/file-import/${connectionId}/stock`,
      "uzak.xlsx",
      await farCellWorkbook(),
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(far.statusCode).toBe(400);
    expect(far.json().message).toBe(
      "Dosyada en fazla 100.000 satır olabilir (başlık satırı hariç); dosyayı bölerek yükleyiniz.",
    );
  });

  it("writes the orders of a run into one orders file, each order once", async () => {
    c.shop.generateOrders(3);
    const run = await runJob(t, c, "OrderIntegration");
    expect(run.status, run.report).toBe("Succeeded");
    expect(run.counts.written).toBe(3);
    expect(run.report).toMatch(/Siparişler dosyaya yazıldı: siparisler-\S+\.csv \(3 sipariş\)/);
    const again = await runJob(t, c, "OrderIntegration");
    expect(again.counts.written).toBe(0);
    expect(again.report).not.toContain("Siparişler dosyaya yazıldı");

    const overview = await call(t.app, "GET", `/api/settings/file-exchange/${connectionId}`, {
      token: c.token,
    });
    expect(overview.body.data.orders).toHaveLength(1);
    const file = overview.body.data.orders[0];
    expect(file).toMatchObject({ kind: "orders", source: "sync", rowsAccepted: 3, deliveredAt: null });
    const download = await t.app.inject({
      method: "GET",
      url: `/api/settings/file-exchange/${connectionId}/${file.id}/download`,
      headers: { authorization: `Bearer ${c.token}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-disposition"]).toContain(file.fileName);
    const lines = parseCsv(download.body.replace(/^\uFEFF/, ""), { columns: true, delimiter: ";" }) as Array<
      Record<string, string>
    >;
    const orderNos = new Set(lines.map((l) => l.orderNo));
    expect(orderNos.size).toBe(3);
    expect(lines.every((l) => l.result === "Aktarılmaya hazır" && l.sku)).toBe(true);
  });

  it("is scoped to the caller's company: another company's connection and file ids are unknown", async () => {
    const other = await connectedCompanyWithErp(t, gizsoftByFiles(), { seed: 62 });
    try {
      const mine = await call(t.app, "GET", `/api/settings/file-exchange/${connectionId}`, {
        token: c.token,
      });
      const fileId = mine.body.data.imports[0].id as number;
      const orderFileId = mine.body.data.orders[0].id as number;
      const otherConnection = await erpConnectionId(other);
      const token = other.token;
      const attempts = [
        call(t.app, "GET", `/api/settings/file-exchange/${connectionId}`, { token }),
        call(t.app, "GET", `/api/settings/file-exchange/${connectionId}/${fileId}/rows`, { token }),
        call(t.app, "GET", `/api/settings/file-exchange/${otherConnection}/${fileId}/rows`, { token }),
        call(t.app, "GET", `/api/settings/file-exchange/${otherConnection}/${orderFileId}/download`, {
          token,
        }),
      ];
      for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
      const foreign = await upload(
        token,
        `/api/settings/file-import/${connectionId}/products`,
        "u.csv",
        productsCsv,
      );
      expect(foreign.statusCode).toBe(404);
      // The other company's own sync sees none of the first company's files.
      const own = await call(t.app, "GET", `/api/settings/file-exchange/${otherConnection}`, { token });
      expect(own.body.data).toEqual({ imports: [], orders: [], folders: [] });
    } finally {
      await other.close();
    }
  });
});

describe("deleting a kept file", () => {
  let c: Company;
  let connectionId: number;
  let skus: string[];
  beforeAll(async () => {
    c = await connectedCompanyWithErp(t, gizsoftByFiles(), { seed: 63 });
    connectionId = await erpConnectionId(c);
    skus = [...c.shop.state.skuIndex.keys()].slice(0, 2);
  });
  afterAll(() => c.close());

  const stockCsv = (qty: number) =>
    `sku;warehouse;quantity\n${skus.map((s) => `${s};MERKEZ;${qty}`).join("\n")}\n`;
  const uploadStock = async (name: string, content: string) => {
    const res = await upload(c.token, `/api/settings/file-import/${connectionId}/stock`, name, content);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data.importId as number;
  };
  const remove = (fileId: number, token = c.token) =>
    call(t.app, "DELETE", `/api/settings/file-exchange/${connectionId}/${fileId}`, { token });
  const overview = async () =>
    (await call(t.app, "GET", `/api/settings/file-exchange/${connectionId}`, { token: c.token })).body.data;
  const qty = (sku: string) => {
    const location = c.shop.state.stockLocations[0]!.id;
    return shopVariant(c, sku)!.stocks.find((s) => s.stockLocationId === location)?.stockCount ?? 0;
  };

  it("hands the kind back to the next-newest accepted file, then to the query when none is left", async () => {
    const older = await uploadStock("stok-eski.csv", stockCsv(7));
    const newer = await uploadStock("stok-yeni.csv", stockCsv(11));
    // Newest of all but with no accepted row: never the source, deleted or not.
    await uploadStock("stok-bozuk.csv", `sku;warehouse;quantity\n${skus[0]};MERKEZ;çok\n`);

    const deleted = await remove(newer);
    expect(deleted.status).toBe(200);
    expect(deleted.body.message).toBe("Dosya silindi.");
    expect(deleted.body.data).toEqual({
      id: newer,
      kind: "stock",
      nextFile: { id: older, fileName: "stok-eski.csv" },
    });
    const listed = await overview();
    expect(listed.imports.map((f: { fileName: string }) => f.fileName)).toEqual([
      "stok-bozuk.csv",
      "stok-eski.csv",
    ]);
    expect(listed.imports.find((f: { id: number }) => f.id === older).usedForSync).toBe(true);

    const run = await runJob(t, c, "StockIntegration");
    expect(run.status, run.report).toBe("Succeeded");
    expect(run.report).toContain("Stok dosyadan okundu: stok-eski.csv");
    for (const sku of skus) expect(qty(sku), sku).toBe(7);

    const last = await remove(older);
    expect(last.body.data).toEqual({ id: older, kind: "stock", nextFile: null });
    // Gone: a second delete finds nothing.
    expect((await remove(older)).status).toBe(404);
    // No file left: the stock query is the source again (none is configured for this company).
    const byQuery = await runJob(t, c, "StockIntegration");
    expect(byQuery.status).toBe("Failed");
    expect(byQuery.report).toContain('Stok sorgusu tanımlanmamış; "SQL ile bağlantı" bölümünden ekleyin.');
    expect(byQuery.report).not.toContain("dosyadan okundu");

    const activities = await call(t.app, "GET", "/api/Activity/1/30", { token: c.token });
    const texts = activities.body.data.map((a: { activity_Description: string }) => a.activity_Description);
    expect(texts).toContain("Yüklenen dosya silindi: stok-yeni.csv");
    expect(texts).toContain("Yüklenen dosya silindi: stok-eski.csv");
  });

  it("lets a run that is reading the file finish with it", async () => {
    const fallback = await uploadStock("stok-yedek.csv", stockCsv(3));
    const inUse = await uploadStock("stok-kullanilan.csv", stockCsv(21));
    // The shop answers slowly: the run's stock write is still under way when the file goes.
    c.shop.setFaults({ latencyMs: 400 });
    try {
      const writesBefore = c.shop.counters.writes;
      const started = await call(t.app, "POST", `/api/Job/run-job?jobId=${c.jobId("StockIntegration")}`, {
        token: c.token,
      });
      expect(started.status).toBe(200);
      const until = Date.now() + 30_000;
      while (c.shop.counters.writes === writesBefore && Date.now() < until)
        await new Promise((r) => setTimeout(r, 20));
      expect(c.shop.counters.writes).toBeGreaterThan(writesBefore);
      const deleted = await remove(inUse);
      expect(deleted.body.data.nextFile).toEqual({ id: fallback, fileName: "stok-yedek.csv" });
      const running = await call(t.app, "GET", `/api/JobHistory/report/${started.body.data.runId}`, {
        token: c.token,
      });
      expect(running.body.data.status).toBe("Running");

      const run = await waitForRun(t, c.token, started.body.data.runId as number);
      expect(run.status, run.report).toBe("Succeeded");
      expect(run.report).toContain("Stok dosyadan okundu: stok-kullanilan.csv");
      for (const sku of skus) expect(qty(sku), sku).toBe(21);
    } finally {
      c.shop.setFaults({});
    }
    // The next run reads the file that is left.
    const next = await runJob(t, c, "StockIntegration");
    expect(next.report).toContain("Stok dosyadan okundu: stok-yedek.csv");
    for (const sku of skus) expect(qty(sku), sku).toBe(3);
  }, 90_000);

  it("answers another company's file id with 404 and deletes nothing", async () => {
    const mine = await uploadStock("stok-benim.csv", stockCsv(5));
    const other = await connectedCompanyWithErp(t, gizsoftByFiles(), { seed: 64 });
    try {
      const otherConnection = await erpConnectionId(other);
      const attempts = [
        remove(mine, other.token),
        call(t.app, "DELETE", `/api/settings/file-exchange/${otherConnection}/${mine}`, {
          token: other.token,
        }),
      ];
      for (const res of await Promise.all(attempts)) expect(res.status).toBe(404);
      const still = await overview();
      expect(still.imports.find((f: { id: number }) => f.id === mine)).toMatchObject({
        fileName: "stok-benim.csv",
        usedForSync: true,
      });
    } finally {
      await other.close();
    }
    // Orders files are not deletable: each order is recorded as being in exactly one of them.
    c.shop.generateOrders(1);
    await runJob(t, c, "OrderIntegration");
    const ordersFile = (await overview()).orders[0];
    expect(ordersFile).toBeDefined();
    expect((await remove(ordersFile.id)).status).toBe(404);
    expect((await overview()).orders.map((f: { id: number }) => f.id)).toContain(ordersFile.id);
  });
});
