import { mkdtempSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { closeContext, createContext } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";
import { findConnection, openCredentials } from "../src/modules/connections/repository.ts";
import type { AppContext } from "../src/platform/context.ts";
import { call, registerAndLogin } from "./harness.ts";
import { freshPostgres } from "./support/fresh-database.ts";

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ok) => probe.listen(0, "127.0.0.1", ok));
  const { port } = probe.address() as { port: number };
  await new Promise((ok) => probe.close(ok));
  return port;
}

const pg = await freshPostgres();
const port = await freePort();
let app: FastifyInstance;
let ctx: AppContext;

beforeAll(async () => {
  const config = loadConfig({
    DATA_DIR: mkdtempSync(join(tmpdir(), "ep-sandbox-ax-")),
    PORT: String(port),
    DEMO: "0",
    CAPTCHA: "off",
    LOG_LEVEL: "warn",
    ...(pg ? { DATABASE_URL: pg.url } : {}),
  });
  ctx = await createContext(config, {
    logDestination: new Writable({ write: (_c, _e, d) => d() }),
    scheduler: false,
  });
  app = await buildApp(ctx);
  await app.listen({ port, host: "127.0.0.1" });
}, 120_000);

afterAll(async () => {
  await app?.close();
  if (ctx) await closeContext(ctx);
  await pg?.drop();
});

describe("Dynamics AX 2012 sandbox (/sandbox/dynamics-ax)", () => {
  it("a company whose ERP is AX 2012 connects to its sandbox, tests it and moves stock to its IKAS sandbox", async () => {
    const a = await registerAndLogin(app, { erpType: 7 });
    const res = await call(app, "POST", "/api/sandbox/connect", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.data.erp).toMatchObject({ productType: 7, isEmulated: true, lastTest: { ok: true } });
    const companyId = a.account.company.id as number;
    const erp = openCredentials(ctx.credentials, (await findConnection(ctx.database.db, companyId, "erp"))!);
    expect(erp.endpoint).toMatch(
      /\/sandbox\/dynamics-ax\/.+\/MicrosoftDynamicsAXAif60\/EntegrasyonPaneli\/xppservice\.svc$/,
    );
    expect(erp).toMatchObject({ company: "dat", customerAccount: "WEB-001" });
    const jobs = await call(app, "GET", "/api/Job/type-filter/StockIntegration", { token: a.token });
    const started = await call(app, "POST", `/api/Job/run-job?jobId=${jobs.body.data[0].id}`, {
      token: a.token,
    });
    expect(started.status).toBe(200);
    let run: { status: string; counts: { written: number }; report: string } | undefined;
    for (let i = 0; i < 600 && (!run || run.status === "Queued" || run.status === "Running"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (await call(app, "GET", `/api/JobHistory/report/${started.body.data.runId}`, { token: a.token }))
        .body.data;
    }
    expect(run?.status, run?.report).toBe("Succeeded");
    expect(run?.counts.written).toBeGreaterThan(0);
  }, 120_000);
});
