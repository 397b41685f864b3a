import { spawnSync } from "node:child_process";
import { startAxEmulator } from "@ep/connectors";
import { describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import {
  agentCli,
  agentProcess,
  bindErpToAgent,
  erpCheckCallsSince,
  killScenario,
  useAgentTestApp,
} from "./agent-harness.ts";
import { connectedCompanyWithErp, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, type TestApp } from "./harness.ts";

let t: TestApp;
let server: string;
useAgentTestApp("1.5", (app) => ({ t, server } = app));

/** Runs the agent's CLI (`entegrasyon-agent …`) on an agent home, as the merchant's IT would. */
function agentCommand(home: string, args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", agentCli, ...args], {
    env: { ...process.env, ENTEGRASYON_AGENT_HOME: home },
    encoding: "utf8",
  });
}

/** An AX 2012 AIF emulator (type 7), answering only through its SOAP port; every answer schema-checked. */
const axErp = (seed: number, itemCount = 60, validateResponses = true) =>
  startAxEmulator({ host: "127.0.0.1", seed, itemCount, validateResponses });

describe("Dynamics AX 2012 through the on-site agent", () => {
  it("a company installs the agent, connects AX 2012, tests it and syncs products and stock with IKAS", async () => {
    const erp = await axErp(61);
    // A new shop: every AX item becomes a shop product. (Each released AX item is one product: product
    // masters and their variant dimensions are not read yet, so a shop grouping sizes of one model under
    // one product would hold them as binding conflicts; see VERIFIED.md.)
    const c = await connectedCompanyWithErp(t, erp, { seed: 61, shop: { productCount: 0 } });
    const agent = await agentProcess(t, server, c.token);
    try {
      await agent.start();
      await bindErpToAgent(t, c.token, agent.agentId);
      const hub = agentHubOf(t.ctx);
      const relayedBefore = hub.relayedCalls(agent.agentId);
      const since = new Date();

      const tested = await call(t.app, "POST", "/api/APIConnection/erp/7", {
        token: c.token,
        body: { fields: erp.credentials, agentId: agent.agentId },
      });
      expect(tested.body.data, JSON.stringify(tested.body)).toMatchObject({ ok: true });
      expect(tested.body.data.message).toContain("Dynamics AX 2012: şirket dat");
      expect(hub.relayedCalls(agent.agentId) - relayedBefore).toBe(1);

      const productsBefore = c.shop.state.products.size;
      const products = await runJob(t, c, "ProductIntegration");
      expect(products.status, products.report).toBe("Succeeded");
      for (const item of erp.state.items) expect(c.shop.state.skuIndex.has(item.sku), item.sku).toBe(true);
      expect(c.shop.state.products.size - productsBefore).toBe(erp.state.items.length);
      expect(products.counts.written).toBe(erp.state.items.length);

      const stock = await runJob(t, c, "StockIntegration");
      expect(stock.status, stock.report).toBe("Succeeded");
      const location = c.shop.state.stockLocations[0]!.id;
      for (const item of erp.state.items) {
        const [productId, variantId] = c.shop.state.skuIndex.get(item.sku)!;
        const qty = c.shop.state
          .findVariant(productId, variantId)
          ?.stocks.find((s) => s.stockLocationId === location)?.stockCount;
        expect(qty, item.sku).toBe(item.stock1 + item.stock2);
      }
      // Every AX call of the runs went through the agent, and AX refused no envelope.
      const erpCalls = products.calls.erp.read + stock.calls.erp.read;
      expect(erpCalls).toBeGreaterThan(0);
      const checkCalls = await erpCheckCallsSince(t, c.companyId, since);
      expect(hub.relayedCalls(agent.agentId) - relayedBefore).toBe(1 + erpCalls + checkCalls);
      expect(erp.schemaRejections).toEqual([]);
      expect(erp.responseProblems).toEqual([]);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 180_000);

  it("another company can neither bind nor test through this company's agent", async () => {
    const erp = await axErp(63, 10);
    const c = await connectedCompanyWithErp(t, erp, { seed: 63 });
    const other = await registerAndLogin(t.app);
    const agent = await agentProcess(t, server, c.token);
    try {
      const bind = await call(t.app, "PUT", "/api/agents/connection", {
        token: other.token,
        body: { kind: "erp", agentId: agent.agentId },
      });
      expect(bind.status).toBe(404);
      const test = await call(t.app, "POST", "/api/APIConnection/erp/7", {
        token: other.token,
        body: { fields: erp.credentials, agentId: agent.agentId },
      });
      expect(test.body.data?.ok ?? false).toBe(false);
      expect(erp.server.counters.requests).toBe(0);
    } finally {
      await c.close();
    }
  });

  it("Windows authentication (NTLM) is supplied by the agent from its own config, never by the server", async () => {
    const account = { domain: "KONTOSO", user: "svc-entegrasyon", password: "Gizli-Parola-1" };
    const erp = await startAxEmulator({ host: "127.0.0.1", seed: 71, itemCount: 20, windowsAuth: account });
    const c = await connectedCompanyWithErp(t, erp, { seed: 71, shop: { productCount: 0 } });
    const agent = await agentProcess(t, server, c.token);
    const test = () =>
      call(t.app, "POST", "/api/APIConnection/erp/7", {
        token: c.token,
        body: { fields: erp.credentials, agentId: agent.agentId },
      });
    try {
      await agent.start();
      await bindErpToAgent(t, c.token, agent.agentId);
      // Without an entry for the AX host, IIS refuses: an auth failure in the merchant's words.
      const refused = await test();
      expect(refused.body.data.ok).toBe(false);
      expect(refused.body.data.message).toContain("kimlik bilgileri kabul edilmedi");
      expect(erp.server.counters.authFailures).toBeGreaterThan(0);

      const host = new URL(erp.endpoint).host;
      /** `http-auth add <host> --ntlm` with the account's domain and user, as the merchant's IT types it. */
      const addNtlm = (password: string) =>
        agentCommand(agent.home, [
          ...["http-auth", "add", host, "--ntlm"],
          ...["--domain", account.domain, "--user", account.user, "--password", password],
        ]);
      const wrong = addNtlm("yanlis");
      expect(wrong.status, wrong.stdout + wrong.stderr).toBe(0);
      expect((await test()).body.data.ok).toBe(false);

      const saved = addNtlm(account.password);
      expect(saved.stdout).toContain(`Windows kimlik doğrulaması '${host}' için kaydedildi`);
      const listed = agentCommand(agent.home, ["http-auth", "list"]);
      expect(listed.stdout).toContain(`${host}: ntlm KONTOSO\\svc-entegrasyon`);
      expect(listed.stdout).not.toContain(account.password);
      const ok = await test();
      expect(ok.body.data, JSON.stringify(ok.body)).toMatchObject({ ok: true });
      const products = await runJob(t, c, "ProductIntegration");
      expect(products.status, products.report).toBe("Succeeded");
      expect(products.counts.written).toBe(20);
      expect(erp.windowsLogins).toBeGreaterThan(1);
      expect(erp.schemaRejections).toEqual([]);
      // The Windows password never reached the server: not in the stored connection, not in its logs.
      const stored = JSON.stringify(
        await call(t.app, "GET", "/api/settings/connections", { token: c.token }),
      );
      expect(stored).not.toContain(account.password);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 180_000);

  // CI runs 40 orders; `AGENT_KILL_ORDERS=500 npx vitest run test/agent-dynamics-ax.test.ts` is the size.
  const ORDERS = Number(process.env.AGENT_KILL_ORDERS ?? 40);
  it(
    `loses and doubles none of ${ORDERS} orders when the agent is SIGKILLed twice mid-writes`,
    async () => {
      // Requests are still validated; answers are not re-validated here (two xmllint runs per call).
      const erp = await axErp(67, 60, false);
      const c = await connectedCompanyWithErp(t, erp, { seed: 67 });
      await killScenario(t, server, c, {
        count: ORDERS,
        erpDocumentsByOrder: () => erp.state.documentsByRef(),
        slowWrites: (on) => erp.setFaults(on ? { latencyMs: 15 } : {}),
        label: "dynamics-ax agent",
        where: "sales orders in AX",
        check: () => {
          expect(erp.schemaRejections).toEqual([]);
        },
      });
    },
    Math.max(600_000, ORDERS * 3_000),
  );
});
