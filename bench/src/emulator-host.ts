/**
 * Child process of the bench: the Mikro and IKAS emulators with the same seeded catalogue, so their
 * memory and CPU do not count against the engine process. Controlled over IPC (see ipc.ts).
 */
import {
  createMikroConnector,
  type IkasEmulatorCredentials,
  InMemoryRateLimitStore,
  type MikroEmulatorCredentials,
  startIkasEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import { failIpc, serveIpc } from "./ipc.ts";

export type EmulatorsReady = {
  erp: MikroEmulatorCredentials;
  shop: IkasEmulatorCredentials;
  skus: number;
};

export type CallStats = {
  stock: { calls: number; items: number };
  prices: { calls: number; items: number };
  shop: { requests: number; reads: number; writes: number; rateLimitViolations: number };
  erp: { requests: number; reads: number; writes: number };
};

export type Mutation = { stockChanges: number; priceChanges: number };

/** When each call arrived (ms since the counters were reset): ERP reads, shop stock and price writes. */
export type CallTimeline = { erpReads: number[]; stockWrites: number[]; priceWrites: number[] };

async function main() {
  const skus = Number(process.env.BENCH_SKUS ?? 100_000);
  const seed = process.env.BENCH_SEED ?? "bench-100k";
  // Same seed and count: both sides hold the same SKUs, so ProductIntegration binds every one.
  const erp = await startMikroEmulator({ host: "127.0.0.1", seed, productCount: skus });
  const shop = await startIkasEmulator({ host: "127.0.0.1", seed, productCount: skus, errorBlock: false });

  let resetAt = Date.now();
  const codes = () =>
    erp.state
      .table("STOKLAR")
      .rows.map((r) => String(r.sto_kod))
      .sort();

  serveIpc({ erp: erp.credentials, shop: shop.credentials, skus } satisfies EmulatorsReady, {
    setRateLimit: (args) => shop.setRateLimit(args as { requests: number; windowMs: number } | false),
    /**
     * Answer times added to every request, after the shop's rate limit has counted its arrival (as a
     * remote system counts them): the latency mode of the bench (shop 300 ms, ERP 150 ms by default).
     */
    setLatency: (args) => {
      const { shopMs, erpMs } = args as { shopMs: number; erpMs: number };
      shop.setFaults({ latencyMs: shopMs });
      erp.setFaults({ latencyMs: erpMs });
    },
    resetCounters: () => {
      shop.resetCounters();
      erp.resetCounters();
      shop.recorder.clear();
      erp.recorder.clear();
      resetAt = Date.now();
    },
    timeline: (): CallTimeline => {
      const query = (body: unknown) => String((body as { query?: unknown } | null)?.query ?? "");
      const shopCalls = shop.recorder.list();
      return {
        erpReads: erp.recorder.list().map((r) => r.at - resetAt),
        stockWrites: shopCalls
          .filter((r) => query(r.body).includes("saveProductStockLocations"))
          .map((r) => r.at - resetAt),
        priceWrites: shopCalls
          .filter((r) => query(r.body).includes("saveVariantPrices"))
          .map((r) => r.at - resetAt),
      };
    },
    stats: (): CallStats => ({
      ...shop.batchWriteStats(),
      shop: {
        requests: shop.counters.requests,
        reads: shop.counters.reads,
        writes: shop.counters.writes,
        rateLimitViolations: shop.counters.rateLimitViolations,
      },
      erp: { requests: erp.counters.requests, reads: erp.counters.reads, writes: erp.counters.writes },
    }),
    /** Changes stock (depot 1) and the retail price (list 1) of every `every`-th stock card. */
    mutate: (args): Mutation => {
      const { every } = args as { every: number };
      let stockChanges = 0;
      let priceChanges = 0;
      const all = codes();
      for (let i = 0; i < all.length; i += every) {
        const code = all[i]!;
        erp.state.setStock(code, 1, erp.state.quantity(code, 1) + 7);
        stockChanges++;
        const price = erp.state.prices.get(`${code}|1`);
        if (price) {
          erp.state.setPrice(code, 1, Math.round((Number(price.sfiyat_fiyati) + 1.25) * 100) / 100);
          priceChanges++;
        }
      }
      return { stockChanges, priceChanges };
    },
    /**
     * A SQL Server answers a full read's ORDER BY from its index; the emulator sorts its in-memory table
     * on the first one (measured: 0.85 s for the 100,000-row price list, 0.26 s for stock), and serves
     * the shop from the same thread meanwhile. One split of each listing before the timed runs keeps
     * those sorts ready, as the index would be; the timed runs' own reads are unchanged.
     */
    warmErpSorts: async () => {
      const mikro = createMikroConnector(erp.credentials as never, {
        companyId: "bench-warm-up",
        rateLimitStore: new InMemoryRateLimitStore(),
      });
      const groups = await mikro.listPriceGroups();
      const group = groups.find((g) => g.isDefault) ?? groups[0];
      await mikro.splitFullRead?.("stock", 3);
      if (group) await mikro.splitFullRead?.("prices", 3, { priceGroups: [group.id] });
    },
    memory: () => process.memoryUsage().rss,
    close: async () => {
      await Promise.all([erp.close(), shop.close()]);
      setImmediate(() => process.exit(0));
    },
  });
}

main().catch(failIpc);
