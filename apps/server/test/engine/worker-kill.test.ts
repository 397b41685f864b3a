import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startIkasEmulator, startMikroEmulator } from "@ep/connectors";
import { engineSchema, ensureCompanyJobs } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { saveConnection } from "../../src/modules/connections/repository.ts";
import { openDatabase } from "../../src/platform/db/database.ts";
import { companies, users } from "../../src/platform/db/schema.ts";
import { CredentialCipher } from "../../src/platform/security/credentials.ts";
import { hashPassword } from "../../src/platform/security/passwords.ts";
import { serverNodeArgs } from "../../src/server-process.ts";
import { freshPostgres } from "../support/fresh-database.ts";

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ORDERS = 2_000;
const KILLS = 4;
const EMAIL = "kill.test@example.com";
const PASSWORD = "Kill.Test.2026";

/**
 * 2,000 shop orders moved to the ERP while both emulators fail 10 % of calls with 5xx, 5 % with
 * timeouts and throw 429 bursts, and while the server process doing the work is SIGKILLed several
 * times mid-run. Afterwards every order is in the ERP exactly once and the ledger says so.
 */
describe("orders survive faults and killed workers", () => {
  const cleanups: Array<() => Promise<unknown>> = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  it("transfers every order exactly once", async () => {
    const pgDb = await freshPostgres();
    if (pgDb) cleanups.push(() => pgDb.drop());
    const dataDir = mkdtempSync(join(tmpdir(), "ep-kill-"));
    const logFile = join(dataDir, "server.log");
    const key = randomBytes(32);
    const env = {
      ...process.env,
      DATABASE_URL: pgDb?.url ?? "",
      DATA_DIR: dataDir,
      DEMO: "0",
      LOG_LEVEL: "warn",
      CAPTCHA: "off",
      TOKEN_SECRET: randomBytes(32).toString("hex"),
      CREDENTIAL_KEY: `k1:${key.toString("base64")}`,
      ENGINE_LEASE_SECONDS: "3",
      CONNECTOR_TIMEOUT_SECONDS: "0.5",
      CONNECTOR_RATE_MULTIPLIER: "50",
      // The emulators listen on loopback, which the outbound-call guard refuses unless allowed.
      OUTBOUND_ALLOW: "127.0.0.1",
    };

    const faults = { rate5xx: 0.1, timeoutRate: 0.05, rate429: 0.03, hangMs: 800, retryAfterSeconds: 0 };
    const erp = await startMikroEmulator({ host: "127.0.0.1", seed: 61, productCount: 150 });
    const shop = await startIkasEmulator({
      host: "127.0.0.1",
      seed: 61,
      productCount: 150,
      rateLimit: false,
    });
    cleanups.push(
      () => erp.close(),
      () => shop.close(),
    );
    const orders = shop.generateOrders(ORDERS);
    expect(orders).toHaveLength(ORDERS);

    // Seed the company straight into the database the server processes will open.
    const seedDb = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
    const cipher = new CredentialCipher(new Map([["k1", key]]), "k1");
    const [company] = await seedDb.db
      .insert(companies)
      .values({ name: "Kill Test A.Ş.", erpType: 9, ecommerceType: 1 })
      .returning();
    const companyId = company!.id;
    await seedDb.db.insert(users).values({
      companyId,
      email: EMAIL,
      passwordHash: await hashPassword(PASSWORD),
      firstName: "Test",
      lastName: "Kullanıcı",
    });
    await saveConnection(seedDb.db, cipher, {
      companyId,
      kind: "erp",
      systemType: 9,
      credentials: { ...erp.credentials },
    });
    await saveConnection(seedDb.db, cipher, {
      companyId,
      kind: "shop",
      systemType: 1,
      credentials: { ...shop.credentials },
    });
    await ensureCompanyJobs(seedDb.db, companyId, new Date());
    await seedDb.db
      .update(engineSchema.jobs)
      .set({ isEnabled: false })
      .where(eq(engineSchema.jobs.companyId, companyId));
    const [orderJob] = await seedDb.db
      .select()
      .from(engineSchema.jobs)
      .where(eq(engineSchema.jobs.type, "OrderIntegration"));
    await seedDb.close();

    erp.setFaults(faults);
    shop.setFaults(faults);

    let child: ChildProcess | undefined;
    cleanups.push(async () => child?.kill("SIGKILL"));
    const port = 4300 + Math.floor(Math.random() * 500);
    const base = `http://127.0.0.1:${port}`;
    // The server as production runs it: the bundle (built once by the global setup), not tsx.
    const serverArgs = serverNodeArgs("start");
    const start = async () => {
      child = spawn(process.execPath, serverArgs, {
        cwd: serverDir,
        env: { ...env, PORT: String(port) },
        // The server's own log, kept for a failing run to be read afterwards.
        stdio: ["ignore", openSync(logFile, "a"), openSync(logFile, "a")],
      });
      // A start beside other suites on a loaded box can take seconds.
      for (let i = 0; i < 900; i++) {
        const ok = await fetch(`${base}/health`)
          .then((r) => r.ok)
          .catch(() => false);
        if (ok) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error("server did not start");
    };
    const kill = async () => {
      const c = child;
      if (!c) return;
      const exited = new Promise((r) => c.once("exit", r));
      c.kill("SIGKILL");
      await exited;
      child = undefined;
    };
    const api = async (method: string, path: string, token?: string, body?: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method,
        headers: {
          "content-type": "application/json",
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as { data: any } };
    };
    const signIn = async () =>
      (await api("POST", "/api/account/login", undefined, { email: EMAIL, password: PASSWORD })).body.data
        .token as string;
    /** Starts a run; while the crashed one is still `Running` (until its lease runs out) the API says 409. */
    const startRun = async (token: string) => {
      for (let i = 0; i < 120; i++) {
        const res = await api("POST", `/api/Job/run-job?jobId=${orderJob!.id}`, token);
        if (res.status === 200) return res.body.data.runId as number;
        await new Promise((r) => setTimeout(r, 500));
      }
      throw new Error("could not start a run");
    };
    const erpOrderCount = () =>
      new Set(erp.state.table("SIPARISLER").rows.map((r) => String(r.sip_belgeno))).size;

    // Kill the worker several times while a run is moving orders.
    for (let k = 0; k < KILLS; k++) {
      await start();
      await startRun(await signIn());
      const before = erpOrderCount();
      const until = Date.now() + 60_000;
      while (erpOrderCount() < before + 60 && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      await kill();
    }
    expect(erpOrderCount()).toBeLessThan(ORDERS);

    // Let it finish with faults still on, running again whatever is left; then one calm run
    // confirms the orders whose last answer was lost (it looks each one up before anything else).
    await start();
    const token = await signIn();
    const runToEnd = async () => {
      const runId = await startRun(token);
      for (;;) {
        const run = await api("GET", `/api/JobHistory/report/${runId}`, token);
        if (!["Queued", "Running"].includes(run.body.data.status)) return run.body.data;
        await new Promise((r) => setTimeout(r, 250));
      }
    };
    const deadline = Date.now() + 300_000;
    while (erpOrderCount() < ORDERS && Date.now() < deadline) await runToEnd();
    erp.setFaults({});
    shop.setFaults({});
    const last = await runToEnd();
    expect(last.status, `${last.report}\n(server log: ${logFile})`).toBe("Succeeded");
    await kill();

    // The verdict: the ERP's own tables and our ledger.
    const docsByOrder = new Map<string, Set<string>>();
    for (const row of erp.state.table("SIPARISLER").rows) {
      const set = docsByOrder.get(String(row.sip_belgeno)) ?? new Set<string>();
      set.add(`${row.sip_evrakno_seri}-${row.sip_evrakno_sira}`);
      docsByOrder.set(String(row.sip_belgeno), set);
    }
    const duplicates = [...docsByOrder].filter(([, docs]) => docs.size !== 1);
    expect(duplicates).toEqual([]);
    for (const o of orders) expect(docsByOrder.has(o.orderNumber), o.orderNumber).toBe(true);
    expect(docsByOrder.size).toBe(ORDERS);

    const verify = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
    const ledger = await verify.db
      .select()
      .from(engineSchema.orderLedger)
      .where(eq(engineSchema.orderLedger.companyId, companyId));
    await verify.close();
    expect(ledger).toHaveLength(ORDERS);
    expect(ledger.filter((r) => r.state !== "confirmed")).toEqual([]);
    for (const row of ledger) {
      const docs = docsByOrder.get(row.orderNo);
      expect(docs && [...docs][0]).toBe(row.erpDocumentId);
    }
    expect(erp.counters.faults["5xx"]).toBeGreaterThan(0);
    expect(erp.counters.faults.timeout).toBeGreaterThan(0);
  }, 600_000);
});
