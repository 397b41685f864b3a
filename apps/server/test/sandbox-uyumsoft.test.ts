import { startUyumsoftEmulator } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { findConnection, openCredentials } from "../src/modules/connections/repository.ts";
import { call, registerAndLogin } from "./harness.ts";
import { makeOrders, putOrdersInLedger, setSellerData } from "./invoices/invoice-support.ts";
import { listeningServer } from "./support/listening-server.ts";

const server = listeningServer("sandbox-uyumsoft");

describe("Uyumsoft sandbox (mounted when ../shared holds the vendor WSDL)", () => {
  it("a company whose ERP is Uyumsoft connects to its sandbox and issues e-invoices end to end", async () => {
    const a = await registerAndLogin(server.app, { erpType: 8 });
    const res = await call(server.app, "POST", "/api/sandbox/connect", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.body.data.erp).toMatchObject({ isEmulated: true, lastTest: { ok: true } });
    const companyId = a.account.company.id as number;
    const erp = openCredentials(
      server.ctx.credentials,
      (await findConnection(server.ctx.database.db, companyId, "erp"))!,
    );
    expect(erp.endpoint).toContain("/sandbox/uyumsoft/");
    await setSellerData(server.ctx, companyId);
    // Orders as the order job would have put them in the ledger (customers from a throwaway emulator's seed).
    const seedEmu = await startUyumsoftEmulator({ seed: 1 });
    const shop = (await findConnection(server.ctx.database.db, companyId, "shop"))!;
    await putOrdersInLedger(server.ctx, companyId, shop.id, makeOrders(3, seedEmu, { prefix: "SBX" }));
    await seedEmu.close();
    // The InvoiceIntegration job of the engine issues them (the company's "ERP" is an e-invoice service).
    const jobs = await call(server.app, "GET", "/api/Job/type-filter/InvoiceIntegration", { token: a.token });
    const started = await call(server.app, "POST", `/api/Job/run-job?jobId=${jobs.body.data[0].id}`, {
      token: a.token,
    });
    expect(started.status).toBe(200);
    let run: { status: string } | undefined;
    for (let i = 0; i < 600 && (!run || run.status === "Queued" || run.status === "Running"); i++) {
      await new Promise((r) => setTimeout(r, 100));
      run = (
        await call(server.app, "GET", `/api/JobHistory/report/${started.body.data.runId}`, { token: a.token })
      ).body.data;
    }
    expect(run?.status).not.toBe("Failed");
    const list = await call(server.app, "GET", "/api/invoices", { token: a.token });
    expect(list.body.data).toHaveLength(3);
    expect(
      list.body.data.every((r: { state: string }) => r.state !== "error" && r.state !== "prepared"),
    ).toBe(true);

    // "Şimdi Faturala" on the screen runs the same cycle: nothing left to issue, nothing issued twice.
    const again = await call(server.app, "POST", "/api/invoices/run", { token: a.token });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ prepared: 0, sent: 0, failed: 0 });
    expect((await call(server.app, "GET", "/api/invoices", { token: a.token })).body.data).toHaveLength(3);
  }, 120_000);
});
