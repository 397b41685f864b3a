/**
 * `npm run bench:first-sync-memory -w @ep/bench` (issue 34, item 2): does the first product sync's
 * memory grow with the catalogue? For each size (BENCH_SIZES, default 10000,100000; add 1000000 for
 * the large case, about 20 minutes) Mikro and IKAS emulators start with that catalogue (every ERP SKU
 * also in the shop, so the sync reads every card and adopts every product), and ProductIntegration
 * runs with limits lifted in a process of its own (setup.ts), on a fresh database, twice: with the
 * catalogue held whole as before (BENCH_HOLD_WHOLE=1) and spread over files by model key as now.
 * It prints that process's resident memory before the run, its peak, and the growth per 1,000
 * SKUs, with the box's load. V8 lets its heap grow while memory is free, so the peak without a cap
 * says little about what the sync needs: BENCH_CHILD_NODE_ARGS="--max-old-space-size=150" shows
 * whether it runs within that heap. The database (the embedded default's cluster, or DATABASE_URL's server)
 * runs in its own processes and is not counted here: sync-100k.ts measures the whole.
 */
import { randomBytes } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { benchDatabase, boxLoad } from "./bench-server.ts";
import { Emulators } from "./emulators.ts";
import { ChildControl } from "./ipc.ts";
import type { SetupReady } from "./setup.ts";

const here = dirname(fileURLToPath(import.meta.url));
const SIZES = (process.env.BENCH_SIZES ?? "10000,100000").split(",").map(Number);
const mb = (kb: number) => (kb / 1024).toFixed(0);
/** BENCH_MODES: "whole,spread" (default), or one of them. BENCH_CHILD_NODE_ARGS: flags for the sync's process. */
const MODES = (process.env.BENCH_MODES ?? "whole,spread").split(",");
const CHILD_ARGS = (process.env.BENCH_CHILD_NODE_ARGS ?? "").split(" ").filter(Boolean);

type Row = { skus: number; mode: "held whole" | "spread"; ready: SetupReady; seconds: number; load: string };

async function firstSync(skus: number, emulators: Emulators, holdWhole: boolean): Promise<Row> {
  const database = await benchDatabase();
  try {
    const env = {
      BENCH_ERP_CREDENTIALS: JSON.stringify(emulators.ready.erp),
      BENCH_SHOP_CREDENTIALS: JSON.stringify(emulators.ready.shop),
      BENCH_CREDENTIAL_KEY: randomBytes(32).toString("base64"),
      BENCH_DATABASE_URL: database.url,
      BENCH_HOLD_WHOLE: holdWhole ? "1" : "0",
    };
    const t = performance.now();
    const setup = await ChildControl.start<SetupReady>(join(here, "setup.ts"), env, CHILD_ARGS);
    await setup.stop();
    return {
      skus,
      mode: holdWhole ? "held whole" : "spread",
      ready: setup.ready,
      seconds: (performance.now() - t) / 1000,
      load: boxLoad(),
    };
  } finally {
    await database.drop();
  }
}

async function main() {
  console.log(`First product sync, peak memory of its process, sizes ${SIZES.join(", ")} (${boxLoad()})`);
  const rows: Row[] = [];
  for (const skus of SIZES) {
    const emulators = await Emulators.start({ skus });
    try {
      for (const holdWhole of MODES.map((m) => m === "whole")) {
        let row: Row;
        try {
          row = await firstSync(skus, emulators, holdWhole);
        } catch (error) {
          // Under a heap cap (BENCH_CHILD_NODE_ARGS) the catalogue held whole may not fit: say so.
          console.log(
            `  ${skus.toLocaleString("en").padStart(9)} SKUs, ${holdWhole ? "held whole" : "spread"}: the sync's process failed (${(error as Error).message})  [${boxLoad()}]`,
          );
          continue;
        }
        rows.push(row);
        const growth = row.ready.peakRssKb - row.ready.rssBeforeKb;
        console.log(
          `  ${skus.toLocaleString("en").padStart(9)} SKUs, ${row.mode.padEnd(10)} ${row.ready.status}, read ${row.ready.moved.toLocaleString("en")}: ` +
            `before ${mb(row.ready.rssBeforeKb)} MB, peak ${mb(row.ready.peakRssKb)} MB, growth ${mb(growth)} MB ` +
            `(live heap peak ${mb(row.ready.peakHeapKb)} MB, outside the heap ${mb(row.ready.peakExternalKb)} MB) ` +
            `(${((growth / 1024 / skus) * 1000).toFixed(2)} MB per 1,000 SKUs), ${row.seconds.toFixed(0)} s  [${row.load}]`,
        );
      }
    } finally {
      await emulators.stop();
    }
  }
  const spread = rows.filter((r) => r.mode === "spread");
  const first = spread[0];
  const last = spread[spread.length - 1];
  if (first && last && last !== first)
    console.log(
      `\nspread: peak at ${last.skus.toLocaleString("en")} SKUs ÷ peak at ${first.skus.toLocaleString("en")} = ` +
        `${(last.ready.peakRssKb / first.ready.peakRssKb).toFixed(2)}× for ${(last.skus / first.skus).toFixed(0)}× the SKUs`,
    );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
