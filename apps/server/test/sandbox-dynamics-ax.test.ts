import { describe, expect, it } from "vitest";
import { findConnection, openCredentials } from "../src/modules/connections/repository.ts";
import { call, registerAndLogin } from "./harness.ts";
import { listeningServer } from "./support/listening-server.ts";

const server = listeningServer("sandbox-ax");

describe("Dynamics AX 2012 sandbox (/sandbox/dynamics-ax)", () => {
  it("a company whose ERP is AX 2012 connects to its sandbox, tests it and moves stock to its IKAS sandbox", async () => {
    const a = await registerAndLogin(server.app, { erpType: 7 });
    const res = await call(server.app, "POST", "/api/sandbox/connect", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.data.erp).toMatchObject({ productType: 7, isEmulated: true, lastTest: { ok: true } });
    const companyId = a.account.company.id as number;
    const erp = openCredentials(
      server.ctx.credentials,
      (await findConnection(server.ctx.database.db, companyId, "erp"))!,
    );
    expect(erp.endpoint).toMatch(
      /\/sandbox\/dynamics-ax\/.+\/MicrosoftDynamicsAXAif60\/EntegrasyonPaneli\/xppservice\.svc$/,
    );
    expect(erp).toMatchObject({ company: "dat", customerAccount: "WEB-001" });
    const jobs = await call(server.app, "GET", "/api/Job/type-filter/StockIntegration", { token: a.token });
    const started = await call(server.app, "POST", `/api/Job/run-job?jobId=${jobs.body.data[0].id}`, {
      token: a.token,
    });
    expect(started.status).toBe(200);
    let run: { status: string; counts: { written: number }; report: string } | undefined;
    for (let i = 0; i < 600 && (!run || run.status === "Queued" || run.status === "Running"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (
        await call(server.app, "GET", `/api/JobHistory/report/${started.body.data.runId}`, { token: a.token })
      ).body.data;
    }
    expect(run?.status, run?.report).toBe("Succeeded");
    expect(run?.counts.written).toBeGreaterThan(0);
  }, 120_000);
});
