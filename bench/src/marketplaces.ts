/**
 * Stock to the marketplaces at 100,000 SKUs, under each one's own limits (the connectors' descriptor
 * budgets: Trendyol 50 per 10 s, Hepsiburada 240 a minute, n11 1,000 a minute; Amazon: each operation's usage plan and
 * JSON_LISTINGS_FEED's five per five minutes): calls per change, and wall time ÷ the least
 * time those calls can take under the limit (`leastTime`, bench/src/least-time.ts). Three runs each:
 * every SKU changed, 1 % changed, and the same full body again within 15 minutes (Trendyol refuses a
 * repeat; the connector does not send it). Batch results are polled every 200 ms (2 s in production).
 * Run: npm run bench:marketplaces -w bench   (SKUS=20000 for a quicker look, ONLY=n11 for one marketplace)
 */

import {
  AMAZON_LISTINGS_FEED_LIMIT,
  AMAZON_USAGE_PLANS,
  CallCounter,
  type ConnectorContext,
  createAmazonConnector,
  createHepsiburadaConnector,
  createN11Connector,
  createTrendyolConnector,
  hepsiburadaDescriptor,
  InMemoryRateLimitStore,
  n11Descriptor,
  type ShopConnector,
  type StockUpdate,
  startAmazonEmulator,
  startHepsiburadaEmulator,
  startN11Emulator,
  startTrendyolEmulator,
  trendyolDescriptor,
} from "@ep/connectors";
import { earliestCalls, leastTime, type WindowLimit } from "./least-time";

const SKUS = Number(process.env.SKUS ?? 100_000);

function ctx(counter: CallCounter): ConnectorContext {
  return {
    companyId: "bench",
    rateLimitStore: new InMemoryRateLimitStore(),
    counter,
    timeoutMs: 60_000,
    asyncBatch: { intervalMs: 200, maxPolls: 100 },
  };
}

async function run(
  name: string,
  system: string,
  budget: WindowLimit,
  conn: ShopConnector,
  counter: CallCounter,
  updates: StockUpdate[],
  label: string,
) {
  counter.reset();
  const started = Date.now();
  const r = await conn.setStock(updates);
  const wall = (Date.now() - started) / 1000;
  const c = counter.get(system);
  const calls = c.read + c.write;
  const least = leastTime(calls, budget);
  const ratio = least > 0 ? (wall / least).toFixed(2) : "— (within one window)";
  console.log(
    `${name.padEnd(11)} ${label.padEnd(22)} ${String(updates.length).padStart(7)} changes | ${String(calls).padStart(4)} calls (${c.write} writes, ${c.read} result reads) = ${(calls / Math.max(1, updates.length)).toFixed(4)} per change | applied ${r.applied}, failed ${r.failed.length} | wall ${wall.toFixed(1)} s, least ${least.toFixed(1)} s, wall ÷ least ${ratio}`,
  );
}

async function trendyol() {
  const emu = await startTrendyolEmulator({ seed: 11, productCount: SKUS });
  try {
    const counter = new CallCounter();
    const conn = createTrendyolConnector(emu.credentials, ctx(counter));
    const all = emu.products.map((p) => ({
      sku: String(p.stockCode),
      variantId: String(p.barcode),
      locationId: "default",
      qty: 5,
    }));
    await run("Trendyol", "trendyol", trendyolDescriptor.budget, conn, counter, all, "all changed");
    const some = all.filter((_, i) => i % 100 === 0).map((u) => ({ ...u, qty: 6 }));
    await run("Trendyol", "trendyol", trendyolDescriptor.budget, conn, counter, some, "1 % changed");
    await run("Trendyol", "trendyol", trendyolDescriptor.budget, conn, counter, all, "same again < 15 min");
  } finally {
    await emu.close();
  }
}

async function hepsiburada() {
  const emu = await startHepsiburadaEmulator({ seed: 11, productCount: SKUS });
  try {
    const counter = new CallCounter();
    const conn = createHepsiburadaConnector(emu.credentials, ctx(counter));
    const all = emu.listings.map((l) => ({ sku: String(l.merchantSku), locationId: "default", qty: 5 }));
    await run("Hepsiburada", "hepsiburada", hepsiburadaDescriptor.budget, conn, counter, all, "all changed");
    const some = all.filter((_, i) => i % 100 === 0).map((u) => ({ ...u, qty: 6 }));
    await run("Hepsiburada", "hepsiburada", hepsiburadaDescriptor.budget, conn, counter, some, "1 % changed");
  } finally {
    await emu.close();
  }
}

async function n11() {
  const emu = await startN11Emulator({ seed: 11, productCount: SKUS });
  try {
    const counter = new CallCounter();
    const conn = createN11Connector(emu.credentials, ctx(counter));
    const all = emu.products.map((p) => ({ sku: String(p.stockCode), locationId: "default", qty: 5 }));
    await run("n11", "n11", n11Descriptor.budget, conn, counter, all, "all changed");
    const some = all.filter((_, i) => i % 100 === 0).map((u) => ({ ...u, qty: 6 }));
    await run("n11", "n11", n11Descriptor.budget, conn, counter, some, "1 % changed");
  } finally {
    await emu.close();
  }
}

/**
 * Amazon: the least time is the longest any one operation needs under its own usage plan (a token bucket
 * as `burst` per `burst ÷ rate` s) and createFeed under JSON_LISTINGS_FEED's five per five minutes.
 * Feeds are processed in 2 s by the emulator (minutes at Amazon); the id map carries each listing's
 * product type, as after a first run (that first run adds one searchListingsItems call per 20 SKUs).
 */
async function amazon() {
  const emu = await startAmazonEmulator({ seed: 11, productCount: SKUS, feedDelayMs: 2_000 });
  try {
    const counter = new CallCounter();
    const conn = createAmazonConnector(emu.credentials, ctx(counter));
    const all = emu.listings.map((l) => ({
      sku: String(l.sku),
      variantId: String(l.productType),
      locationId: "default",
      qty: 5,
    }));
    /** When each JSON_LISTINGS_FEED went out (ms): the feed type's window carries over between runs. */
    const feedTimes: number[] = [];
    const go = async (updates: StockUpdate[], label: string) => {
      counter.reset();
      const started = Date.now();
      const before = feedTimes.length;
      const r = await conn.setStock(updates);
      const wall = (Date.now() - started) / 1000;
      for (const q of emu.recorder.list())
        if (q.method === "POST" && q.path === "/feeds/2021-06-30/feeds" && q.at >= started)
          feedTimes.push(q.at);
      emu.recorder.clear();
      const c = counter.get("amazon");
      const calls = c.read + c.write;
      const ops = Object.entries(counter.byOperation())
        .filter(([k]) => k.startsWith("amazon:"))
        .map(([k, n]) => [k.slice("amazon:".length), n] as const);
      let least = 0;
      for (const [op, n] of ops) {
        const plan = AMAZON_USAGE_PLANS[op];
        if (plan)
          least = Math.max(
            least,
            leastTime(n, { requests: plan.burst, windowMs: (plan.burst / plan.rate) * 1000 }),
          );
        if (op === "createFeed") {
          // The earliest this run's feeds could go, after the feeds of earlier runs still in the window.
          const at = earliestCalls(
            [...feedTimes.slice(0, before), ...new Array<number>(n).fill(started)],
            AMAZON_LISTINGS_FEED_LIMIT,
          );
          least = Math.max(least, ((at[at.length - 1] ?? started) - started) / 1000);
        }
      }
      const ratio = least > 0 ? (wall / least).toFixed(2) : "— (within the bursts)";
      console.log(
        `${"Amazon".padEnd(11)} ${label.padEnd(22)} ${String(updates.length).padStart(7)} changes | ${String(calls).padStart(4)} calls (${ops.map(([o, n]) => `${o} ${n}`).join(", ")}) = ${(calls / Math.max(1, updates.length)).toFixed(5)} per change | applied ${r.applied}, failed ${r.failed.length} | wall ${wall.toFixed(1)} s, least ${least.toFixed(1)} s, wall ÷ least ${ratio}`,
      );
    };
    await go(all, "all changed");
    await go(
      all.filter((_, i) => i % 100 === 0).map((u) => ({ ...u, qty: 6 })),
      "1 % changed",
    );
    // A sixth feed within five minutes waits for the feed type's window: the limit, measured.
    await go(
      all.filter((_, i) => i % 1000 === 1).map((u) => ({ ...u, qty: 8 })),
      "0.1 % changed, 6th feed",
    );
  } finally {
    await emu.close();
  }
}

console.log(`marketplace stock at ${SKUS} SKUs, each under its own limit`);
// ONLY=n11 (or a comma list) runs some of them.
const only = new Set((process.env.ONLY ?? "trendyol,hepsiburada,n11,amazon").split(","));
if (only.has("trendyol")) await trendyol();
if (only.has("hepsiburada")) await hepsiburada();
if (only.has("n11")) await n11();
if (only.has("amazon")) await amazon();
