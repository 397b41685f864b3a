import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveConnection } from "../src/modules/connections/repository.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";
import { uploadFile } from "./support/upload.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(() => t.close());

const sqlConfig = JSON.stringify({
  stock: {
    sql: "SELECT STK_KOD, DEPO, MIKTAR FROM STOK_DEPO",
    columns: { sku: "STK_KOD", warehouse: "DEPO", quantity: "MIKTAR" },
  },
});

/** A company on Gizsoft (a system with no API) with its generic SQL connection saved. */
async function gizsoftCompany() {
  const { token } = await registerAndLogin(t.app, { erpType: 12 });
  const saved = await call(t.app, "POST", "/api/settings/connection-setting-update/erp/12", {
    token,
    body: { fields: { sqlAlias: "gizsoft", sqlDialect: "firebird", sqlConfig } },
  });
  expect(saved.status).toBe(200);
  return { token, connectionId: saved.body.data.connection.id as number };
}

describe("SQL preview of the generic connector", () => {
  it("says 'mapping' for the systems with no API at sign-up", async () => {
    const config = await call(t.app, "GET", "/api/config");
    const erp = config.body.data.systems.erp as Record<string, string>;
    expect([erp["12"], erp["13"], erp["14"], erp["15"], erp["22"]]).toEqual(Array(5).fill("mapping"));
    expect(erp["9"]).toBe("agent");
  });

  it("is scoped to the caller's company: another company's connection id is a 404", async () => {
    const a = await gizsoftCompany();
    const b = await gizsoftCompany();
    const foreign = await call(t.app, "POST", `/api/settings/sql-preview/${a.connectionId}`, {
      token: b.token,
      body: { query: "stock" },
    });
    expect(foreign.status).toBe(404);
    const missing = await call(t.app, "POST", "/api/settings/sql-preview/2147483647", {
      token: a.token,
      body: { query: "stock" },
    });
    expect(missing.status).toBe(404);
    const own = await call(t.app, "POST", `/api/settings/sql-preview/${a.connectionId}`, {
      token: a.token,
      body: { query: "stock" },
    });
    expect(own.status).toBe(200);
  });

  it("answers in Turkish what keeps a query from running", async () => {
    const a = await gizsoftCompany();
    const url = `/api/settings/sql-preview/${a.connectionId}`;
    // Saved query, no agent paired for the connection: nothing reaches the database.
    const noAgent = await call(t.app, "POST", url, { token: a.token, body: { query: "stock" } });
    expect(noAgent.body.data.error).toBe(
      "Veritabanına yerel bağlantı aracı üzerinden ulaşılamıyor: aracı eşleyin ve veritabanı takma adını girin.",
    );
    // The form's unsaved draft is checked before anything runs.
    const draft = JSON.stringify({
      stock: { sql: "DELETE FROM STOK_DEPO", columns: { sku: "A", warehouse: "B", quantity: "C" } },
    });
    const refused = await call(t.app, "POST", url, {
      token: a.token,
      body: { query: "stock", sqlConfig: draft },
    });
    expect(refused.body.data.error).toBe("Stok sorgusunda izin verilmeyen ifade: DELETE");
    // The probe's bypass: a write between two literals that look like a comment to a literal-blind check.
    const hidden = JSON.stringify({
      stock: {
        sql: "SELECT KOD AS sku, '/*' AS name FROM STOK DELETE FROM STOK SELECT '*/' AS x",
        columns: { sku: "A", warehouse: "B", quantity: "C" },
      },
    });
    const bypass = await call(t.app, "POST", url, {
      token: a.token,
      body: { query: "stock", sqlConfig: hidden },
    });
    expect(bypass.body.data.error).toBe("Stok sorgusunda izin verilmeyen ifade: DELETE");
    const missing = await call(t.app, "POST", url, { token: a.token, body: { query: "prices" } });
    expect(missing.body.data.error).toBe(
      'Fiyat sorgusu tanımlanmamış; "SQL ile bağlantı" bölümünden ekleyin.',
    );
  });

  it("is refused for a connection that is not a generic SQL one", async () => {
    const a = await gizsoftCompany();
    const [erp] = await t.ctx.database.db
      .select()
      .from(engineSchema.connections)
      .where(eq(engineSchema.connections.id, a.connectionId));
    const shop = await saveConnection(t.ctx.database.db, t.ctx.credentials, {
      companyId: erp!.companyId,
      kind: "shop",
      systemType: 1,
      credentials: { storeName: "magaza" },
    });
    const r = await call(t.app, "POST", `/api/settings/sql-preview/${shop.id}`, {
      token: a.token,
      body: { query: "stock" },
    });
    expect(r.status).toBe(404);
  });
});

describe("file import of the mapping systems", () => {
  const upload = (token: string, url: string, name: string, content: string) =>
    uploadFile(t, token, url, name, content);

  it("checks a stock file per row through the connection's mapping, only for the caller's company", async () => {
    const a = await gizsoftCompany();
    const b = await gizsoftCompany();
    const csv = "STK_KOD;DEPO;MIKTAR\nKLM-001;MERKEZ;12\nKLM-002;MERKEZ;yok\n";
    const own = await upload(a.token, `/api/settings/file-import/${a.connectionId}/stock`, "stok.csv", csv);
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({
      status: "imported",
      usedForSync: true,
      columns: ["STK_KOD", "DEPO", "MIKTAR"],
      accepted: 1,
      rejected: 1,
      rows: [
        { row: 2, key: "KLM-001", accepted: true, reasons: [] },
        { row: 3, key: "KLM-002", accepted: false, reasons: ['quantity sayı değil: "yok".'] },
      ],
    });
    const foreign = await upload(
      b.token,
      `/api/settings/file-import/${a.connectionId}/stock`,
      "stok.csv",
      csv,
    );
    expect(foreign.statusCode).toBe(404);
  });
});
