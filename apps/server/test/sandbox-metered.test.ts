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
    DATA_DIR: mkdtempSync(join(tmpdir(), "ep-sandbox-metered-")),
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
  await app.listen({ port, host: "0.0.0.0" });
}, 120_000);
afterAll(async () => {
  await app?.close();
  if (ctx) await closeContext(ctx);
  await pg?.drop();
});

describe("built-in sandboxes of the metered ERPs", () => {
  it.each([
    [5, "dia", "DİA"],
    [21, "logo-isbasi", "Logo İşbaşı"],
  ])(
    "a company registered with ERP %i connects to its own %s sandbox in one call",
    async (erpType, system, label) => {
      const { token } = await registerAndLogin(app, { erpType });
      const res = await call(app, "POST", "/api/sandbox/connect", { token });
      expect(res.status).toBe(200);
      expect(res.body.data.erp).toMatchObject({
        productType: erpType,
        isEmulated: true,
        lastTest: { ok: true },
      });
      expect(res.body.data.erp.lastTest.message).toContain(label);
      expect(JSON.stringify(res.body.data.erp.values)).toContain(`/sandbox/${system}/`);
      const usage = await call(app, "GET", "/api/settings/connection-usage", { token });
      expect(usage.body.data).toHaveLength(1);
      expect(usage.body.data[0]).toMatchObject({ system, connectionType: "erp" });
    },
    60_000,
  );
});
