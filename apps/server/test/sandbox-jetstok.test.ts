import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import ExcelJS from "exceljs";
import { describe, expect, it } from "vitest";
import { findConnection, openCredentials } from "../src/modules/connections/repository.ts";
import { call, registerAndLogin } from "./harness.ts";
import { runJobOfType } from "./support/job-run.ts";
import { listeningServer } from "./support/listening-server.ts";
import { uploadFile } from "./support/upload.ts";

const server = listeningServer("sandbox-jetstok");
const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

async function sheetRows(xlsx: Buffer): Promise<string[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(xlsx as unknown as ArrayBuffer);
  const rows: string[][] = [];
  book.worksheets[0]!.eachRow((row) =>
    rows.push((row.values as unknown[]).slice(1).map((v) => String(v ?? ""))),
  );
  return rows;
}

describe("JetStok through its files", () => {
  it("a company registered with JetStok downloads its stock file and its uploaded orders land once", async () => {
    const a = await registerAndLogin(server.app, { ecommerceType: 7 });
    const connected = await call(server.app, "POST", "/api/sandbox/connect", { token: a.token });
    expect(connected.status).toBe(200);
    expect(connected.body.data.ecommerce).toMatchObject({
      productType: 7,
      isEmulated: true,
      lastTest: { ok: true },
    });
    const companyId = a.account.company.id as number;
    const shop = (await findConnection(server.ctx.database.db, companyId, "shop"))!;
    const files = `/api/settings/file-exchange/${shop.id}`;

    // Before any stock run there is no stock file.
    expect((await call(server.app, "GET", `${files}/stock-file`, { token: a.token })).status).toBe(404);
    expect((await runJobOfType(server.app, a.token, "StockIntegration"))?.status).toBe("Succeeded");
    expect((await runJobOfType(server.app, a.token, "PriceIntegration"))?.status).toBe("Succeeded");
    const stockFile = await server.app.inject({
      method: "GET",
      url: `${files}/stock-file`,
      headers: { authorization: `Bearer ${a.token}` },
    });
    expect(stockFile.statusCode).toBe(200);
    expect(stockFile.headers["content-disposition"]).toMatch(/jetstok-stok-fiyat-.*\.xlsx/);
    const [header, ...stockRows] = await sheetRows(stockFile.rawPayload);
    expect(header).toEqual(["Stok Kodu", "Stok Adedi", "Satış Fiyatı", "Liste Fiyatı", "Para Birimi"]);
    expect(stockRows.length).toBeGreaterThan(0);
    expect(stockRows.every((r) => r[0] !== "" && r[1] !== "" && r[2] !== "")).toBe(true);
    const overview = await call(server.app, "GET", files, { token: a.token });
    expect(overview.body.data.stockFile).toMatchObject({ rows: stockRows.length });

    // The sandbox panel imports that file as JetStok would (its columns are the documented ones).
    const panelUrl = new URL(openCredentials(server.ctx.credentials, shop).panelUrl!);
    const imported = await server.app.inject({
      method: "POST",
      url: `${panelUrl.pathname}/urunler/ice-aktar`,
      payload: stockFile.rawPayload,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(imported.statusCode).toBe(200);
    expect(imported.json().applied).toBeGreaterThan(0);

    // The merchant exports the panel's orders and uploads the file: the order transfer lands them.
    const exported = await server.app.inject({
      method: "GET",
      url: `${panelUrl.pathname}/siparisler/disa-aktar`,
    });
    expect(exported.statusCode).toBe(200);
    const orderNos = new Set((await sheetRows(exported.rawPayload)).slice(1).map((r) => r[0]));
    const url = `/api/settings/file-import/${shop.id}/orders`;
    const first = await uploadFile(
      server,
      a.token,
      url,
      "jetstok-siparisler.xlsx",
      exported.rawPayload,
      XLSX,
    );
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ status: "imported", rejected: 0, usedForSync: true });
    expect((await runJobOfType(server.app, a.token, "OrderIntegration"))?.status).toBe("Succeeded");
    const ledger = () =>
      server.ctx.database.db
        .select({ orderNo: engineSchema.orderLedger.orderNo, state: engineSchema.orderLedger.state })
        .from(engineSchema.orderLedger)
        .where(eq(engineSchema.orderLedger.companyId, companyId));
    const landed = await ledger();
    expect(new Set(landed.map((o) => o.orderNo))).toEqual(orderNos);
    expect(landed.every((o) => o.state === "confirmed")).toBe(true);

    // The same file again: kept once, nothing read twice; the orders stay once.
    const again = await uploadFile(server, a.token, url, "kopya.xlsx", exported.rawPayload, XLSX);
    expect(again.json().data).toMatchObject({ status: "duplicate", importId: first.json().data.importId });
    expect((await runJobOfType(server.app, a.token, "OrderIntegration"))?.status).toBe("Succeeded");
    expect(await ledger()).toHaveLength(landed.length);

    // Another company cannot see or fill this company's files.
    const b = await registerAndLogin(server.app, { ecommerceType: 7 });
    expect((await call(server.app, "GET", `${files}/stock-file`, { token: b.token })).status).toBe(404);
    expect((await call(server.app, "GET", files, { token: b.token })).status).toBe(404);
    expect((await uploadFile(server, b.token, url, "x.xlsx", exported.rawPayload, XLSX)).statusCode).toBe(
      404,
    );
  }, 240_000);
});
