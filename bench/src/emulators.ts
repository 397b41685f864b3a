/**
 * The bench's two emulators, Mikro and IKAS, each in a child process of its own (emulator-host.ts),
 * with the same seeded catalogue (so every ERP SKU exists in the shop).
 */
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { IkasEmulatorCredentials, MikroEmulatorCredentials } from "@ep/connectors";
import type { CallStats, CallTimeline, EmulatorsReady, Mutation, TraceLine } from "./emulator-host.ts";
import { ChildControl } from "./ipc.ts";

const host = join(dirname(fileURLToPath(import.meta.url)), "emulator-host.ts");
const TRACE = process.env.BENCH_TRACE;

export class Emulators {
  private constructor(
    private readonly erp: ChildControl<MikroEmulatorCredentials>,
    private readonly shop: ChildControl<IkasEmulatorCredentials>,
    readonly ready: EmulatorsReady,
  ) {}

  /** Both emulators with `skus` SKUs from `seed`; `nodeArgs` for both processes. */
  static async start(opts: { skus: number; seed?: string; nodeArgs?: string[] }): Promise<Emulators> {
    const env = (kind: "erp" | "shop") => ({
      BENCH_EMULATOR: kind,
      BENCH_SKUS: String(opts.skus),
      ...(opts.seed ? { BENCH_SEED: opts.seed } : {}),
    });
    const [erp, shop] = await Promise.all([
      ChildControl.start<MikroEmulatorCredentials>(host, env("erp"), opts.nodeArgs),
      ChildControl.start<IkasEmulatorCredentials>(host, env("shop"), opts.nodeArgs),
    ]);
    return new Emulators(erp, shop, { erp: erp.ready, shop: shop.ready, skus: opts.skus });
  }

  /** The emulators' processes (for their CPU). */
  get pids(): number[] {
    return [this.erp.child.pid!, this.shop.child.pid!];
  }

  /** The shop's sliding window (IKAS: 50 requests / 10 s, counted on arrival), or `false` for none. */
  setRateLimit(limit: { requests: number; windowMs: number } | false): Promise<void> {
    return this.shop.call("setRateLimit", limit);
  }

  /** Answer times added to every request of each system, after the shop has counted its arrival. */
  async setLatency(ms: { shopMs: number; erpMs: number }): Promise<void> {
    await Promise.all([this.shop.call("setLatency", ms), this.erp.call("setLatency", ms)]);
  }

  async resetCounters(): Promise<void> {
    await Promise.all([this.shop.call("resetCounters"), this.erp.call("resetCounters")]);
  }

  async stats(): Promise<CallStats> {
    const [shop, erp] = await Promise.all([
      this.shop.call<Omit<CallStats, "erp">>("stats"),
      this.erp.call<Pick<CallStats, "erp">>("stats"),
    ]);
    return { ...shop, ...erp };
  }

  /** When each call arrived since the counters were reset; with `BENCH_TRACE`, every call to a file. */
  async timeline(): Promise<CallTimeline> {
    type Part<T> = T & { trace: TraceLine[] };
    const [shop, erp] = await Promise.all([
      this.shop.call<Part<Pick<CallTimeline, "stockWrites" | "priceWrites">>>("timeline"),
      this.erp.call<Part<Pick<CallTimeline, "erpReads">>>("timeline"),
    ]);
    if (TRACE) {
      const lines = [...erp.trace, ...shop.trace].sort((a, b) => a[0] - b[0]);
      writeFileSync(
        `${TRACE}.${Date.now()}.txt`,
        `${lines.map(([at, what]) => `${at} ${what}`).join("\n")}\n`,
      );
    }
    return { erpReads: erp.erpReads, stockWrites: shop.stockWrites, priceWrites: shop.priceWrites };
  }

  /** Changes the stock and retail price of every `every`-th stock card in the ERP. */
  mutate(every: number): Promise<Mutation> {
    return this.erp.call<Mutation>("mutate", { every });
  }

  /** One key-range split of each ERP listing, so the emulator's sorts are ready (see emulator-host.ts). */
  warmErpSorts(): Promise<void> {
    return this.erp.call("warmErpSorts");
  }

  async stop(): Promise<void> {
    await Promise.all([this.erp.stop(), this.shop.stop()]);
  }
}
