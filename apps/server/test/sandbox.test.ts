import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerAndLogin } from "./harness.ts";
import { runJobOfType } from "./support/job-run.ts";
import { type BootedServer, restartableServer } from "./support/listening-server.ts";
import { signal } from "./support/signal.ts";

const restartable = await restartableServer("sandbox");

let server: BootedServer | undefined;
// Opening the embedded database on disk (and migrating it) takes a while on a busy machine.
beforeAll(async () => {
  server = await restartable.boot();
}, 120_000);
afterAll(async () => {
  await server?.stop();
  await restartable.drop();
});

describe("sandbox systems under /sandbox/{system}", () => {
  let token = "";
  let other = "";
  let companyId = 0;

  it("connects a new company to its own Mikro and IKAS sandboxes in one call", async () => {
    const a = await registerAndLogin(server!.app);
    token = a.token;
    companyId = a.account.company.id;
    const res = await call(server!.app, "POST", "/api/sandbox/connect", { token });
    expect(res.status).toBe(200);
    expect(res.body.message).toContain("Deneme sistemlerine bağlandınız");
    expect(res.body.data.erp).toMatchObject({ productType: 9, isEmulated: true, lastTest: { ok: true } });
    expect(res.body.data.ecommerce).toMatchObject({
      productType: 1,
      isEmulated: true,
      lastTest: { ok: true },
    });
    expect(res.body.data.jobsReady).toBe(true);
    const erpUrl = res.body.data.erp.values.apiUrl as string;
    expect(erpUrl).toMatch(
      new RegExp(`^http://127\\.0\\.0\\.1:${restartable.port}/sandbox/mikro/c${companyId}-`),
    );
  });

  it("shows each company only its own logins, and another company's tenant refuses them", async () => {
    const mine = await call(server!.app, "GET", "/api/sandbox", { token });
    const b = await registerAndLogin(server!.app);
    other = b.token;
    const theirs = await call(server!.app, "GET", "/api/sandbox", { token: other });
    const mikroOf = (r: typeof mine) =>
      r.body.data.find((s: { productType: number; connectionType: string }) => s.connectionType === "erp")
        .credentials as Record<string, string>;
    const m = mikroOf(mine);
    const t = mikroOf(theirs);
    expect(m.apiUrl).not.toBe(t.apiUrl);
    expect(m.apiKey).not.toBe(t.apiKey);
    // B's own URL with A's login: the sandbox of B answers as Mikro does to a wrong key.
    const wrong = await fetch(`${t.apiUrl}/Api/APIMethods/StokListesiV2`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ Mikro: { ApiKey: m.apiKey, FirmaKodu: "01", CalismaYili: "2026" } }),
    });
    const answer = (await wrong.json()) as { result: Array<{ IsError: boolean; ErrorMessage: string }> };
    expect(answer.result[0]).toMatchObject({ IsError: true, ErrorMessage: "ApiKey geçersiz." });
    // A tenant key without the server's signature names no sandbox at all.
    const forged = t.apiUrl!.replace(/-[A-Za-z0-9_-]{16}$/, "-AAAAAAAAAAAAAAAA");
    const none = await fetch(`${forged}/Api/APIMethods/HealthCheck2`);
    expect(none.status).toBe(404);
    const unsigned = await call(server!.app, "GET", "/api/sandbox");
    expect(unsigned.status).toBe(401);
  });

  it("keeps the saved sandbox connection working after a restart on the same DATA_DIR", async () => {
    await server!.stop();
    server = await restartable.boot();
    const run = await runJobOfType(server.app, token, "StockIntegration");
    expect(run.status).toBe("Succeeded");
    const overview = await call(server.app, "GET", "/api/settings/connections", { token });
    expect(overview.body.data.erp.isEmulated).toBe(true);
  }, 120_000);

  it("lets a run under way at SIGTERM finish against the sandboxes before they close", async () => {
    // The run's first call to the shop sandbox is held until the stop has begun; then it goes out.
    const outbound = server!.ctx.outbound as { fetch: typeof fetch };
    const direct = outbound.fetch;
    const held = signal();
    const released = signal();
    let armed = true;
    outbound.fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (armed && url.includes("/sandbox/ikas/")) {
        armed = false;
        held.fire();
        await released.wait;
      }
      return direct(input, init);
    };
    const jobs = await call(server!.app, "GET", "/api/Job/type-filter/StockIntegration", { token });
    const started = await call(server!.app, "POST", `/api/Job/run-job?jobId=${jobs.body.data[0].id}`, {
      token,
    });
    const runId = started.body.data.runId as number;
    await held.wait;
    const stopped = server!.stop();
    await new Promise((r) => setTimeout(r, 300));
    released.fire();
    await stopped;

    server = await restartable.boot();
    const res = await call(server.app, "GET", `/api/JobHistory/report/${runId}`, { token });
    const run = res.body.data;
    expect(run.status, run.report).toBe("Succeeded");
    expect(JSON.stringify(run)).not.toMatch(/ECONNREFUSED|ECONNRESET|other side closed/i);
  }, 120_000);

  it("'Gerçek sisteme geç': other credentials saved for the same system end the sandbox mark", async () => {
    const res = await call(server!.app, "POST", "/api/settings/connection-setting-update/erp/9", {
      token,
      body: {
        fields: {
          apiUrl: "http://127.0.0.1:9/real-mikro",
          apiKey: "real-key",
          firmCode: "01",
          period: "2026",
          userCode: "SRV",
          password: "real-password",
        },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.data.connection.isEmulated).toBe(false);
    expect(res.body.data.connection.values.apiUrl).toBe("http://127.0.0.1:9/real-mikro");
    // The sandbox login typed back into the form (as shown on it) is a sandbox again.
    const shown = await call(server!.app, "GET", "/api/sandbox", { token });
    const mikro = shown.body.data.find((s: { connectionType: string }) => s.connectionType === "erp");
    const back = await call(server!.app, "POST", "/api/settings/connection-setting-update/erp/9", {
      token,
      body: { fields: mikro.credentials },
    });
    expect(back.body.data.connection).toMatchObject({ isEmulated: true, lastTest: { ok: true } });
  });
});
