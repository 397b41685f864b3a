/**
 * Akınsoft Wolvox end to end through a REAL agent process: the agent's databases.json names a real
 * Firebird database (the Wolvox emulator: built from the schema fixture on the local Firebird 3 server,
 * which `.ci/run` installs and starts), the company connects Wolvox (type 6) through the agent, tests
 * it, syncs products and stock into the IKAS emulator, and sends orders while the agent is SIGKILLed
 * twice: every order arrives exactly once.
 */
import { AgentStore } from "@ep/agent";
import { firebirdSysdbaPassword, generateCatalog } from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createWolvoxDatabase,
  type WolvoxDatabase,
} from "../../../packages/connectors/src/wolvox/emulator/database.ts";
import {
  agentProcess,
  bindErpToAgent,
  ordersThroughKilledAgent,
  RELAYED_CONNECTOR_TIMEOUT,
} from "./agent-harness.ts";
import { connectedCompanyWithErp, runJob } from "./engine/engine-harness.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const password = firebirdSysdbaPassword();
// CI installs and starts Firebird: there a missing server is a failure, not a skip.
const run = password || process.env.CI ? describe : describe.skip;

let t: TestApp;
let server: string;

/** A company wired to its own Wolvox database (through a paired, running agent) and IKAS emulator. */
async function wolvoxCompany(seed: number) {
  const db = await createWolvoxDatabase({ seed, products: 50 });
  const erp = {
    systemType: 6,
    credentials: { sqlAlias: "wolvox", customerCode: "WEB-001" },
    db,
    close: () => db.close(),
  };
  const c = await connectedCompanyWithErp(t, erp, { seed });
  // The password stays with the agent: the server names the database by its alias only.
  const agent = await agentProcess(t, server, c.token, (home) =>
    new AgentStore(home).saveDatabases({ wolvox: db.target }),
  );
  await agent.start();
  await bindErpToAgent(t, c.token, agent.agentId);
  return { c, agent, db };
}

/** The ERP's documents by our order number, kept fresh in the background (the kill helper reads it synchronously). */
function watchOrders(db: WolvoxDatabase) {
  let latest = new Map<string, Set<string>>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      latest = await db.ordersByRef().catch(() => latest);
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  return {
    current: () => latest,
    async refresh() {
      latest = await db.ordersByRef();
      return latest;
    },
    async stop() {
      stopped = true;
      await loop;
    },
  };
}

run("Wolvox through a real agent process on a real Firebird database", () => {
  beforeAll(async () => {
    t = await startTestApp({
      ...RELAYED_CONNECTOR_TIMEOUT,
      CAPTCHA: "off",
      AGENT_OFFLINE_WAIT_SECONDS: "1.5",
    });
    server = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => t?.close());

  it("tests the connection, syncs products and stock into IKAS, writes orders as pending SIPARIS; another company is refused", async () => {
    const seed = 61;
    const { c, agent, db } = await wolvoxCompany(seed);
    try {
      const tested = await call(t.app, "POST", "/api/APIConnection/erp/6", {
        token: c.token,
        body: { fields: { sqlAlias: "wolvox", customerCode: "WEB-001" }, agentId: agent.agentId },
      });
      expect(tested.status, JSON.stringify(tested.body)).toBe(200);
      expect(tested.body.data.ok, JSON.stringify(tested.body)).toBe(true);
      expect(tested.body.data.message).toContain(
        "Wolvox veritabanına yerel bağlantı aracı üzerinden bağlanıldı",
      );

      // A card the shop does not have yet is created there.
      await db.query(
        "INSERT INTO STOK (BLKODU, STOKKODU, STOK_ADI, BIRIMI, KDV_ORANI, GRUBU, AKTIF, KAYIT_TARIHI) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [1000, "WLV-000001", "Wolvox Özel Termos 500 ml", "Adet", 20, "Mutfak", 1, new Date()],
      );
      await db.query(
        "INSERT INTO STOKHR (BLKODU, BLSTKODU, TUTAR_TURU, TARIHI, MIKTARI, DEPO_ADI, SILINDI) VALUES (?, ?, ?, ?, ?, ?, ?)",
        [100_000, 1000, 1, new Date(), 17, "MERKEZ", 0],
      );
      expect((await runJob(t, c, "CategoryIntegration")).status).toBe("Succeeded");
      const products = await runJob(t, c, "ProductIntegration");
      expect(products.status, JSON.stringify(products)).toBe("Succeeded");
      expect(c.shop.state.skuIndex.has("WLV-000001")).toBe(true);

      const stock = await runJob(t, c, "StockIntegration");
      expect(stock.status, JSON.stringify(stock)).toBe("Succeeded");
      const location = c.shop.state.stockLocations[0]!.id;
      const qty = (sku: string) => {
        const ids = c.shop.state.skuIndex.get(sku)!;
        return c.shop.state.findVariant(ids[0], ids[1])!.stocks.find((s) => s.stockLocationId === location)
          ?.stockCount;
      };
      // Every Wolvox warehouse maps to the shop's first location: MERKEZ + SUBE1 movements summed.
      for (const item of generateCatalog({ seed, count: 50 }))
        expect(qty(item.sku), item.sku).toBe(item.stock1 + item.stock2);
      expect(qty("WLV-000001")).toBe(17);

      // Slow SIPARIS inserts: the three orders go at once and take the same next BLKODU (Wolvox numbers
      // documents MAX + 1), as when a clerk saves an order in Wolvox at that moment. Each refused one
      // changed nothing and goes again within the run.
      await db.setSlowWrites(300_000);
      c.shop.generateOrders(3);
      const orders = await runJob(t, c, "OrderIntegration");
      await db.setSlowWrites(0);
      expect(orders.status, JSON.stringify(orders)).toBe("Succeeded");
      expect(orders.counts.written, JSON.stringify(orders)).toBe(3);
      expect(orders.counts.changed, JSON.stringify(orders)).toBe(3);
      // The statements through the agent are the run's ERP calls: the order blocks as writes (one
      // more for each sent again), the look-ups as reads; the report says so to the merchant.
      expect(orders.calls.erp.write, JSON.stringify(orders)).toBeGreaterThanOrEqual(3);
      expect(orders.calls.erp.read, JSON.stringify(orders)).toBeGreaterThan(0);
      expect(stock.calls.erp, JSON.stringify(stock)).toMatchObject({ write: 0 });
      expect(stock.calls.erp.read, JSON.stringify(stock)).toBeGreaterThan(0);
      const rows = await db.query("SELECT SIPARIS_TURU, SIPARIS_DURUMU, CARIKODU FROM SIPARIS");
      expect(rows).toEqual(Array(3).fill({ SIPARIS_TURU: 1, SIPARIS_DURUMU: 1, CARIKODU: "WEB-001" }));

      // Another company: neither this agent, nor a Wolvox test through it, nor this company's jobs.
      const other = await registerAndLogin(t.app);
      const foreign = await call(t.app, "PUT", "/api/agents/connection", {
        token: other.token,
        body: { kind: "erp", agentId: agent.agentId },
      });
      expect(foreign.status).toBe(404);
      const relayed = await call(t.app, "POST", "/api/APIConnection/erp/6", {
        token: other.token,
        body: { fields: { sqlAlias: "wolvox" }, agentId: agent.agentId },
      });
      expect(relayed.status).toBe(400);
      expect(relayed.body.data.errors).toEqual([{ field: "agentId", message: "Alan geçerli değil." }]);
      const job = await call(t.app, "POST", `/api/Job/run-job?jobId=${c.jobId("OrderIntegration")}`, {
        token: other.token,
      });
      expect(job.status).toBe(404);
      const bound = await t.ctx.database.db
        .select()
        .from(engineSchema.connections)
        .where(eq(engineSchema.connections.companyId, c.companyId));
      expect(bound.find((r) => r.kind === "erp")?.agentId).toBe(agent.agentId);
    } finally {
      await agent.kill();
      await c.close();
    }
  }, 180_000);

  // CI runs 40 orders; `AGENT_KILL_ORDERS=500 npx vitest run test/agent-wolvox.test.ts` is the size.
  const ORDERS = Number(process.env.AGENT_KILL_ORDERS ?? 40);
  it(`loses and doubles none of ${ORDERS} orders when the agent is SIGKILLed twice mid-writes`, async () => {
    const { c, agent, db } = await wolvoxCompany(67);
    const watch = watchOrders(db);
    try {
      const result = await ordersThroughKilledAgent(t, c, agent, {
        count: ORDERS,
        erpDocumentsByOrder: watch.current,
        settledDocumentsByOrder: watch.refresh,
        // Each SIPARIS insert burns time inside Firebird, so each kill lands while orders are being written.
        slowWrites: (on) => void db.setSlowWrites(on ? 300_000 : 0),
      });
      const docs = await watch.refresh();
      expect([...docs.values()].every((d) => d.size === 1)).toBe(true);
      expect(docs.size).toBe(ORDERS);
      console.info(
        `wolvox agent kill test: ${ORDERS} orders, kills at ${result.kills.join(" and ")} documents, ${result.documents} in Wolvox, ${result.confirmed} confirmed in the ledger`,
      );
    } finally {
      await watch.stop();
      await agent.kill();
      await c.close();
    }
  }, 600_000);
});
