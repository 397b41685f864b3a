/**
 * SQL Server through the on-site agent, end to end: a real agent process (the CLI) runs the generic SQL
 * connector's statements with `mssql`/`tedious@19` against the canned TDS responder (SQL Server cannot
 * run here), by an alias of its own databases.json. The panel's SQL preview shows the rows; a product
 * sync reads them agent -> TDS and creates the products in the IKAS emulator. Every statement on the
 * wire is read by the T-SQL judge against the schema fixture below.
 */

import { AgentStore } from "@ep/agent";
import {
  type SqlSchemaFixture,
  startTdsServer,
  type TdsAnswerHandler,
  type TdsServer,
  type TdsValue,
} from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AgentProcess,
  agentProcess,
  bindErpToAgent,
  ordersThroughKilledAgent,
  RELAYED_CONNECTOR_TIMEOUT,
} from "./agent-harness.ts";
import { type ConnectedCompany, connectedCompanyWithErp, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const login = { user: "eta_web", password: "Eta.Sifre-2026", database: "ETA_2026" };

/** The tables these statements name; a test fixture (inferred), not a vendor export. */
const schema: SqlSchemaFixture = {
  ETA_STOK: {
    source: "test fixture (inferred)",
    columns: {
      STK_ID: "inferred",
      STK_KOD: "inferred",
      STK_AD: "inferred",
      KDV: "inferred",
      AKTIF: "inferred",
    },
  },
  ETA_DEPO: {
    source: "test fixture (inferred)",
    columns: { STK_KOD: "inferred", DEPO: "inferred", MIKTAR: "inferred" },
  },
  ETA_WEB_SIPARIS: {
    source: "test fixture (inferred)",
    columns: { SIP_NO: "inferred", SIP_REF: "inferred", CARI_AD: "inferred", TUTAR: "inferred" },
  },
  WEB_SIPARIS_YAZ: {
    source: "test fixture (inferred): a procedure, its parameters in order",
    columns: { ref: "inferred", customerName: "inferred", grandTotal: "inferred", linesJson: "inferred" },
  },
};

/** Orders the "ERP" holds: our order number -> its documents (a doubled write would add a second). */
const erpOrders = new Map<string, Set<string>>();
let documentNo = 0;
let writeDelayMs = 0;

const products = [
  [1, "ETA-KLM-001", "Kurşun Kalem HB", 20, true],
  [2, "ETA-DFT-002", "Çizgili Defter A4", 10, true],
  [3, "ETA-SLG-003", "Silgi Yumuşak", 20, true],
  [4, "ETA-CNT-004", "Okul Çantası Şık", 20, true],
  [5, "ETA-BYA-005", "Pastel Boya 12'li", 10, true],
] as const;

/**
 * The responder's answers: the connector's keyset page over ETA_STOK (`TOP (n)` rows after `@after`
 * by STK_ID) and the stock rows. Canned: SQL semantics are not what the responder verifies.
 */
const answer: TdsAnswerHandler = (text, params: Record<string, TdsValue>) => {
  if (/FROM ETA_STOK/i.test(text)) {
    const top = Number(/TOP \((\d+)\)/i.exec(text)?.[1] ?? products.length);
    const after = params.after === undefined ? 0 : Number(params.after);
    return {
      columns: [
        { name: "STK_ID", type: "int" },
        { name: "STK_KOD", type: "nvarchar" },
        { name: "STK_AD", type: "nvarchar" },
        { name: "KDV", type: "decimal", scale: 2 },
        { name: "AKTIF", type: "bit" },
      ],
      rows: products.filter((p) => p[0] > after).slice(0, top) as unknown as unknown[][],
    };
  }
  if (/FROM ETA_DEPO/i.test(text))
    return {
      columns: [
        { name: "STK_KOD", type: "nvarchar" },
        { name: "DEPO", type: "nvarchar" },
        { name: "MIKTAR", type: "decimal", scale: 3 },
      ],
      rows: [
        ["ETA-KLM-001", "MERKEZ", 12],
        ["ETA-KLM-001", "ŞUBE-1", 3.5],
      ],
    };
  if (/^EXEC dbo\.WEB_SIPARIS_YAZ/i.test(text)) {
    // Applied when received, answered later: an agent killed meanwhile leaves a written order unanswered.
    const ref = String(params.ref);
    const docs = erpOrders.get(ref) ?? new Set<string>();
    docs.add(`ETA-${++documentNo}`);
    erpOrders.set(ref, docs);
    const done = { columns: [], rows: [], rowsAffected: 1 };
    return writeDelayMs ? new Promise((r) => setTimeout(() => r(done), writeDelayMs)) : done;
  }
  if (/FROM ETA_WEB_SIPARIS/i.test(text)) {
    const docs = [...(erpOrders.get(String(params.ref)) ?? [])];
    return {
      columns: [
        { name: "SIP_NO", type: "nvarchar" },
        { name: "SIP_REF", type: "nvarchar" },
      ],
      rows: docs.map((d) => [d, params.ref]),
    };
  }
  throw { number: 208, message: "Invalid object name." };
};

const sqlConfig = JSON.stringify({
  products: {
    sql: "SELECT s.STK_ID, s.STK_KOD, s.STK_AD, s.KDV, s.AKTIF FROM ETA_STOK s",
    columns: { sku: "STK_KOD", name: "STK_AD", vat: "KDV", active: "AKTIF" },
    keyColumn: "STK_ID",
  },
  stock: {
    sql: "SELECT STK_KOD, DEPO, MIKTAR FROM ETA_DEPO",
    columns: { sku: "STK_KOD", warehouse: "DEPO", quantity: "MIKTAR" },
  },
  orderLookup: {
    sql: "SELECT SIP_NO, SIP_REF FROM ETA_WEB_SIPARIS WHERE SIP_REF = @ref",
    columns: { documentId: "SIP_NO" },
  },
  orderWrite: { sql: "EXEC dbo.WEB_SIPARIS_YAZ @ref, @customerName, @grandTotal, @linesJson" },
  pageSize: 2,
});

let t: TestApp;
let server: string;
let tds: TdsServer;
let c: ConnectedCompany<{ systemType: number; credentials: Record<string, string>; close(): Promise<void> }>;
let agent: AgentProcess;
let connectionId = 0;

describe("SQL Server through the on-site agent (real agent process, canned TDS responder)", () => {
  beforeAll(async () => {
    tds = await startTdsServer({ ...login, schema, answer });
    t = await startTestApp({ ...RELAYED_CONNECTOR_TIMEOUT, CAPTCHA: "off", AGENT_OFFLINE_WAIT_SECONDS: "1" });
    server = await t.app.listen({ port: 0, host: "127.0.0.1" });
    // System type 15 (Eta) is one of the generic SQL connector's systems, here on SQL Server.
    c = await connectedCompanyWithErp(
      t,
      {
        systemType: 15,
        credentials: { sqlAlias: "eta", sqlDialect: "mssql", sqlConfig },
        close: async () => undefined,
      },
      { seed: 23 },
    );
    // The password stays in the agent's own databases.json: the server names the database by alias.
    agent = await agentProcess(t, server, c.token, (home) =>
      new AgentStore(home).saveDatabases({
        eta: { dialect: "mssql", host: "127.0.0.1", port: tds.port, ...login },
      }),
    );
    await agent.start();
    await bindErpToAgent(t, c.token, agent.agentId);
    const [row] = await t.ctx.database.db
      .select()
      .from(engineSchema.connections)
      .where(
        and(eq(engineSchema.connections.companyId, c.companyId), eq(engineSchema.connections.kind, "erp")),
      );
    connectionId = row!.id;
  }, 120_000);

  afterAll(async () => {
    await agent?.kill();
    await c?.close();
    await t?.close();
    await tds?.close();
  });

  it("the SQL preview shows the rows read through the agent from SQL Server", async () => {
    const res = await call(t.app, "POST", `/api/settings/sql-preview/${connectionId}`, {
      token: c.token,
      body: { query: "stock" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.error ?? null).toBeNull();
    expect(res.body.data.rows).toEqual([
      { STK_KOD: "ETA-KLM-001", DEPO: "MERKEZ", MIKTAR: 12 },
      { STK_KOD: "ETA-KLM-001", DEPO: "ŞUBE-1", MIKTAR: 3.5 },
    ]);
    const sent = tds.statements.filter((s) => /FROM ETA_DEPO/.test(s.text));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.every((s) => s.kind === "rpc" || s.kind === "batch")).toBe(true);
  });

  it("another company's connection id is refused", async () => {
    const other = await registerAndLogin(t.app);
    const before = tds.statements.length;
    const foreign = await call(t.app, "POST", `/api/settings/sql-preview/${connectionId}`, {
      token: other.token,
      body: { query: "stock" },
    });
    expect(foreign.status).toBe(404);
    expect(tds.statements.length).toBe(before);
  });

  it("a product sync reads the products agent -> TDS and creates them in the shop", async () => {
    const run = await runJob(t, c, "ProductIntegration");
    expect(run.status, JSON.stringify(run)).toBe("Succeeded");
    for (const [, sku, name] of products) {
      const ids = c.shop.state.skuIndex.get(sku);
      expect(ids, sku).toBeDefined();
      expect(c.shop.state.products.get(ids![0])?.name).toBe(name);
    }
    // The connector's keyset page over the merchant's SELECT went to SQL Server as sp_executesql.
    const pages = tds.statements.filter((s) => /FROM ETA_STOK/.test(s.text));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages[0]!.kind).toBe("rpc");
    expect(pages[0]!.text).toMatch(
      /^SELECT TOP \(\d+\) \* FROM \(SELECT s\.STK_ID.*\) AS q ORDER BY q\.STK_ID$/,
    );
  });

  // CI runs 40 orders; `AGENT_MSSQL_KILL_ORDERS=500 npx vitest run test/agent-mssql.test.ts` is the size.
  const ORDERS = Number(process.env.AGENT_MSSQL_KILL_ORDERS ?? 40);
  it(`loses and doubles none of ${ORDERS} orders when the agent is SIGKILLed twice mid-writes`, async () => {
    const result = await ordersThroughKilledAgent(t, c, agent, {
      count: ORDERS,
      erpDocumentsByOrder: () => erpOrders,
      // Slow enough writes that each kill lands while orders are being written.
      slowWrites: (on) => {
        writeDelayMs = on ? 25 : 0;
      },
    });
    console.info(`agent-mssql kill scenario: ${JSON.stringify(result)}`);
  }, 600_000);

  it("writes shop orders through the agent as a procedure call, each once", async () => {
    const orders = c.shop.generateOrders(4);
    const run = await runJob(t, c, "OrderIntegration");
    expect(run.status, JSON.stringify(run)).toBe("Succeeded");
    expect(run.counts.written, JSON.stringify(run)).toBe(4);
    for (const o of orders) expect(erpOrders.get(o.orderNumber)?.size, o.orderNumber).toBe(1);
    const writes = tds.statements.filter(
      (s) => /WEB_SIPARIS_YAZ/.test(s.text) && orders.some((o) => o.orderNumber === s.params.ref),
    );
    expect(writes).toHaveLength(4);
    expect(writes[0]!.wireTypes).toMatchObject({
      ref: "nvarchar",
      grandTotal: expect.stringMatching(/decimal|int/),
    });
    expect(writes[0]!.verdict.kind).toBe("procedure");
  });

  it("every statement on the wire passed the T-SQL judge against the schema fixture", () => {
    expect(tds.statements.length).toBeGreaterThan(0);
    expect(tds.judgeFailures.map((s) => `${s.text}: ${s.verdict.errors.join("; ")}`)).toEqual([]);
    expect(tds.statements.every((s) => s.verdict.tables.every((table) => table in schema))).toBe(true);
  });
});
