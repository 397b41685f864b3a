/**
 * SQL through the on-site agent, end to end: the server relays statements to a real agent process (the
 * CLI), which runs them on a real Firebird 3 server (Debian firebird3.0-server; `.ci/run` starts it) by
 * an alias from its own databases.json. The generic SQL connector's preview reaches the rows that way.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { AgentStore, pair } from "@ep/agent";
import { ConnectorError, firebirdSysdbaPassword } from "@ep/connectors";
import Firebird from "node-firebird";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";
import { deadline } from "./support/deadline.ts";

const agentCli = resolve(dirname(fileURLToPath(import.meta.url)), "../../agent/src/cli.ts");

const password = firebirdSysdbaPassword();
// CI installs and starts Firebird: there a missing server is a failure, not a skip.
const run = password || process.env.CI ? describe : describe.skip;
const dbFile = join(tmpdir(), `ep_agent_sql_${process.pid}.fdb`);
const fb = { host: "127.0.0.1", port: 3050, database: dbFile, user: "SYSDBA", password: password ?? "" };

async function createDatabase() {
  const db = await new Promise<Firebird.Database>((ok, fail) =>
    Firebird.create(fb, (err, d) => (err ? fail(err) : ok(d))),
  );
  const q = (sql: string, params: unknown[] = []) =>
    new Promise<void>((ok, fail) => db.query(sql, params, (err) => (err ? fail(err) : ok())));
  await q("CREATE TABLE STOK_DEPO (STK_KOD VARCHAR(30), DEPO VARCHAR(10), MIKTAR NUMERIC(15,3))");
  for (const [sku, depot, qty] of [
    ["KLM-001", "MERKEZ", 12],
    ["KLM-001", "SUBE1", 3.5],
    ["KLM-002", "MERKEZ", 7],
  ] as const)
    await q("INSERT INTO STOK_DEPO VALUES (?, ?, ?)", [sku, depot, qty]);
  db.detach();
}

let t: TestApp;
let server: string;
let child: ChildProcess | undefined;
let agentId = 0;
let token = "";
let connectionId = 0;

run("SQL through the on-site agent (real agent process, real Firebird)", () => {
  beforeAll(async () => {
    await createDatabase();
    t = await startTestApp({ CAPTCHA: "off", AGENT_OFFLINE_WAIT_SECONDS: "1" });
    server = await t.app.listen({ port: 0, host: "127.0.0.1" });
    ({ token } = await registerAndLogin(t.app, { erpType: 12 }));
    const code = await call(t.app, "POST", "/api/agents/pairing-code", { token });
    const config = await pair(server, code.body.data.code as string, "MUHASEBE-PC");
    agentId = config.agentId;
    const home = mkdtempSync(join(tmpdir(), "ep-agent-sql-"));
    const store = new AgentStore(home);
    store.saveConfig(config);
    // The password stays on the agent's machine: the server names the database by its alias only.
    store.saveDatabases({ muhasebe: { dialect: "firebird", ...fb } });
    child = spawn(process.execPath, ["--import", "tsx", agentCli, "run"], {
      env: { ...process.env, ENTEGRASYON_AGENT_HOME: home },
      stdio: "ignore",
    });
    const hub = agentHubOf(t.ctx);
    for (let i = 0; i < 1200 && !hub.isOnline(agentId); i++) await new Promise((r) => setTimeout(r, 50));
    expect(hub.isOnline(agentId)).toBe(true);

    const sqlConfig = JSON.stringify({
      stock: {
        sql: "SELECT STK_KOD, DEPO, MIKTAR FROM STOK_DEPO",
        columns: { sku: "STK_KOD", warehouse: "DEPO", quantity: "MIKTAR" },
      },
    });
    const saved = await call(t.app, "POST", "/api/settings/connection-setting-update/erp/12", {
      token,
      body: { fields: { sqlAlias: "muhasebe", sqlDialect: "firebird", sqlConfig }, agentId },
    });
    expect(saved.status).toBe(200);
    connectionId = saved.body.data.connection.id as number;
  }, 120_000);

  afterAll(async () => {
    child?.kill("SIGKILL");
    await t?.close();
    rmSync(dbFile, { force: true });
  });

  it("relays a statement with parameters and a row cap, and answers the rows", async () => {
    const sql = agentHubOf(t.ctx).sqlFor(agentId, { alias: "muhasebe" }, "firebird");
    const all = await sql.query({
      text: "SELECT STK_KOD, MIKTAR FROM STOK_DEPO WHERE STK_KOD = @sku ORDER BY DEPO",
      params: { sku: "KLM-001" },
    });
    expect(all.rows.map((r) => Number(r.MIKTAR))).toEqual([12, 3.5]);
    const capped = await sql.query({ text: "SELECT STK_KOD FROM STOK_DEPO" }, { maxRows: 2 });
    expect(capped.rows).toHaveLength(2);
    expect(capped.truncated).toBe(true);
    // A value is never SQL: a quote in a parameter is just a value.
    const none = await sql.query({
      text: "SELECT STK_KOD FROM STOK_DEPO WHERE STK_KOD = @sku",
      params: { sku: "x' OR '1'='1" },
    });
    expect(none.rows).toEqual([]);
  });

  it("carries a merchant read's read-only mark to the agent: a write in it does not last", async () => {
    const sql = agentHubOf(t.ctx).sqlFor(agentId, { alias: "muhasebe" }, "firebird");
    const before = await sql.query({ text: "SELECT COUNT(*) AS N FROM STOK_DEPO" });
    const write = await sql.query({ text: "DELETE FROM STOK_DEPO", readOnly: true }).catch((e: unknown) => e);
    expect(write).toBeInstanceOf(Error);
    const after = await sql.query({ text: "SELECT COUNT(*) AS N FROM STOK_DEPO" });
    expect(after.rows).toEqual(before.rows);
  });

  it("classifies failures without the driver's text reaching the merchant", async () => {
    const sql = agentHubOf(t.ctx).sqlFor(agentId, { alias: "muhasebe" }, "firebird");
    const bad = await sql.query({ text: "SELECT NOPE FROM STOK_DEPO" }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ConnectorError);
    expect((bad as ConnectorError).reason).toBe("validation");
    expect((bad as ConnectorError).maybeApplied).toBe(false);
    const unknown = await agentHubOf(t.ctx)
      .sqlFor(agentId, { alias: "yok" }, "firebird")
      .query({ text: "SELECT 1 FROM RDB$DATABASE" })
      .catch((e: unknown) => e);
    expect((unknown as ConnectorError).reason).toBe("validation");
    expect((unknown as ConnectorError).systemMessage).toContain("yok");
  });

  it("beside a user's unsaved change: the read answers the committed rows, a write fails as transient lock, then goes through", async () => {
    const sql = agentHubOf(t.ctx).sqlFor(agentId, { alias: "muhasebe" }, "firebird");
    // The test's own Firebird calls have no limit in the driver: each is bounded and named here.
    const holder = await deadline("the test's attach", 15_000, Firebird.attachAsync(fb));
    let held: Firebird.Transaction | undefined;
    try {
      held = await deadline("the test's transaction", 15_000, holder.startTransactionAsync());
      await deadline(
        "the test's UPDATE holding the row",
        15_000,
        held.queryAsync("UPDATE STOK_DEPO SET MIKTAR = 99 WHERE STK_KOD = 'KLM-002'"),
      );
      const read = await sql.query(
        { text: "SELECT MIKTAR FROM STOK_DEPO WHERE STK_KOD = @sku", params: { sku: "KLM-002" } },
        { timeoutMs: 15_000 },
      );
      expect(read.rows.map((r) => Number(r.MIKTAR))).toEqual([7]);
      const write = {
        text: "UPDATE STOK_DEPO SET MIKTAR = @q WHERE STK_KOD = @sku",
        params: { q: 8, sku: "KLM-002" },
      };
      // A 5 s statement bound lets the agent wait up to 4 s for the row, so the lock answer comes inside it.
      const locked = await sql.query(write, { timeoutMs: 5000 }).catch((e: unknown) => e);
      expect(locked).toBeInstanceOf(ConnectorError);
      expect(locked).toMatchObject({ kind: "transient", reason: "lock", maybeApplied: false });
      await deadline("the test's commit", 15_000, held.commitAsync());
      held = undefined;
      await sql.query(write, { timeoutMs: 15_000 });
      const after = await sql.query(
        { text: "SELECT MIKTAR FROM STOK_DEPO WHERE STK_KOD = 'KLM-002'" },
        { timeoutMs: 15_000 },
      );
      expect(after.rows.map((r) => Number(r.MIKTAR))).toEqual([8]);
    } finally {
      // After a failed step the row lock is still held: rolled back first, or the detach may wait on it.
      if (held) await deadline("the test's rollback", 15_000, held.rollbackAsync()).catch(() => undefined);
      await deadline("the test's detach", 15_000, holder.detachAsync()).catch(() => undefined);
    }
  }, 150_000);

  it("the generic SQL connector's preview reads the rows through the agent", async () => {
    const res = await call(t.app, "POST", `/api/settings/sql-preview/${connectionId}`, {
      token,
      body: { query: "stock" },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.error ?? null).toBeNull();
    expect(res.body.data.rows).toHaveLength(3);
  });

  it("with the agent killed, a statement fails as transient with the agent's words, never hangs", async () => {
    const exited = new Promise((r) => child!.once("exit", r));
    child!.kill("SIGKILL");
    await exited;
    const hub = agentHubOf(t.ctx);
    for (let i = 0; i < 100 && hub.isOnline(agentId); i++) await new Promise((r) => setTimeout(r, 20));
    const started = Date.now();
    const e = await hub
      .sqlFor(agentId, { alias: "muhasebe" }, "firebird")
      .query({ text: "SELECT STK_KOD FROM STOK_DEPO" })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ConnectorError);
    expect((e as ConnectorError).kind).toBe("transient");
    expect((e as ConnectorError).merchantMessage).toContain("Yerel bağlantı aracı çevrimdışı");
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
