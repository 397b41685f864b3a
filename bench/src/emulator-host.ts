/**
 * Child process of the bench: one emulator, Mikro (`BENCH_EMULATOR=erp`) or IKAS (`shop`), seeded with
 * the same catalogue as the other. Controlled over IPC (see ipc.ts) by `Emulators` (emulators.ts).
 *
 * Each system runs in a process of its own, as the real ones do: a Mikro page being built (4,000 rows
 * filtered, sorted and serialised) or a garbage collection in one emulator no longer holds up the
 * other's answers and the shop's count of arrivals. In one process, its event loop stood still for 100–500 ms
 * twenty times in the first 9 s of a latency run (`BENCH_TRACE`), and every call of both systems
 * waited meanwhile.
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

/** A line of a trace: ms since the counters were reset, and what happened. */
export type TraceLine = [number, string];

/** Records each time this process's event loop did not turn for over 100 ms (`BENCH_TRACE`). */
function watchStalls(name: string, since: () => number, lines: TraceLine[]) {
  let last = Date.now();
  setInterval(() => {
    const now = Date.now();
    if (now - last > 100) lines.push([last - since(), `${name} EMULATOR STALL ${now - last} ms`]);
    last = now;
  }, 20).unref();
}

async function main() {
  const kind = process.env.BENCH_EMULATOR;
  const skus = Number(process.env.BENCH_SKUS ?? 100_000);
  const seed = process.env.BENCH_SEED ?? "bench-100k";
  const tracing = Boolean(process.env.BENCH_TRACE);
  let resetAt = Date.now();
  const stalls: TraceLine[] = [];
  if (tracing) watchStalls(kind === "erp" ? "ERP" : "SHOP", () => resetAt, stalls);
  const reset = () => {
    resetAt = Date.now();
    stalls.length = 0;
  };

  if (kind === "erp") {
    const erp = await startMikroEmulator({ host: "127.0.0.1", seed, productCount: skus });
    const codes = () =>
      erp.state
        .table("STOKLAR")
        .rows.map((r) => String(r.sto_kod))
        .sort();
    const sqlOf = (body: unknown) => String((body as { SQLSorgu?: unknown } | null)?.SQLSorgu ?? "");
    serveIpc(erp.credentials, {
      setLatency: (args) => erp.setFaults({ latencyMs: (args as { erpMs: number }).erpMs }),
      resetCounters: () => {
        erp.resetCounters();
        erp.recorder.clear();
        reset();
      },
      timeline: () => ({
        erpReads: erp.recorder.list().map((r) => r.at - resetAt),
        trace: tracing
          ? [
              ...erp.recorder
                .list()
                .map((r): TraceLine => [r.at - resetAt, `ERP ${sqlOf(r.body).slice(0, 160)}`]),
              ...stalls,
            ]
          : [],
      }),
      stats: () => ({
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
       * A SQL Server answers a full read's ORDER BY from its index; the emulator sorts its in-memory
       * table on the first one (measured: 0.85 s for the 100,000-row price list, 0.26 s for stock). One
       * split of each listing before the timed runs keeps those sorts ready, as the index would be; the
       * timed runs' own reads are unchanged.
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
      close: async () => {
        await erp.close();
        setImmediate(() => process.exit(0));
      },
    });
    return;
  }

  const shop = await startIkasEmulator({ host: "127.0.0.1", seed, productCount: skus, errorBlock: false });
  const queryOf = (body: unknown) => String((body as { query?: unknown } | null)?.query ?? "");
  serveIpc(shop.credentials, {
    setRateLimit: (args) => shop.setRateLimit(args as { requests: number; windowMs: number } | false),
    /**
     * Answer times added to every request, after the shop's rate limit has counted its arrival (as a
     * remote system counts them).
     */
    setLatency: (args) => shop.setFaults({ latencyMs: (args as { shopMs: number }).shopMs }),
    resetCounters: () => {
      shop.resetCounters();
      shop.recorder.clear();
      reset();
    },
    timeline: () => {
      const calls = shop.recorder.list();
      const writes = (mutation: string) =>
        calls.filter((r) => queryOf(r.body).includes(mutation)).map((r) => r.at - resetAt);
      return {
        stockWrites: writes("saveProductStockLocations"),
        priceWrites: writes("saveVariantPrices"),
        trace: tracing
          ? [
              ...calls.map(
                (r): TraceLine => [
                  r.at - resetAt,
                  `SHOP ${queryOf(r.body).replace(/\s+/g, " ").slice(0, 60)}`,
                ],
              ),
              ...stalls,
            ]
          : [],
      };
    },
    stats: () => ({
      ...shop.batchWriteStats(),
      shop: {
        requests: shop.counters.requests,
        reads: shop.counters.reads,
        writes: shop.counters.writes,
        rateLimitViolations: shop.counters.rateLimitViolations,
      },
    }),
    close: async () => {
      await shop.close();
      setImmediate(() => process.exit(0));
    },
  });
}

main().catch(failIpc);
