import { describe, expect, it } from "vitest";
import { findConnection, openCredentials } from "../src/modules/connections/repository.ts";
import { call, registerAndLogin } from "./harness.ts";
import { listeningServer } from "./support/listening-server.ts";

const server = listeningServer("sandbox-ideasoft");

describe("Ideasoft sandbox", () => {
  it("a company registered with Ideasoft connects to its own Ideasoft sandbox and transfers its orders", async () => {
    const a = await registerAndLogin(server.app, { ecommerceType: 2 });
    const res = await call(server.app, "POST", "/api/sandbox/connect", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.data.ecommerce).toMatchObject({
      productType: 2,
      isEmulated: true,
      lastTest: { ok: true },
    });
    const companyId = a.account.company.id as number;
    const shopCredentials = async () =>
      openCredentials(
        server.ctx.credentials,
        (await findConnection(server.ctx.database.db, companyId, "shop"))!,
      );
    // The connection test's token pair was kept with the stored connection (persistCredentials).
    const stored = await shopCredentials();
    expect(stored.accessToken).toBeTruthy();
    expect(Number(stored.tokenExpiresAt)).toBeGreaterThan(Date.now());

    const jobs = await call(server.app, "GET", "/api/Job/type-filter/OrderIntegration", { token: a.token });
    const started = await call(server.app, "POST", `/api/Job/run-job?jobId=${jobs.body.data[0].id}`, {
      token: a.token,
    });
    expect(started.status).toBe(200);
    let run: { status: string } | undefined;
    for (let i = 0; i < 1200 && (!run || run.status === "Queued" || run.status === "Running"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (
        await call(server.app, "GET", `/api/JobHistory/report/${started.body.data.runId}`, { token: a.token })
      ).body.data;
    }
    expect(run?.status).toBe("Succeeded");
    // The run started from the stored pair: no refresh was needed, nothing changed.
    const after = await shopCredentials();
    expect(after.accessToken).toBe(stored.accessToken);
    expect(after.refreshToken).toBe(stored.refreshToken);
  }, 180_000);
});
