/**
 * One stock pool shared by every sales channel of a company (issue 37, item 2).
 *
 * pool = ERP available stock − what is ordered on any channel and not yet in the ERP. Each channel may
 * offer at most the pool minus its own safety stock, and the offers together never exceed the pool: if
 * every channel sold all it offers before the next stock run, the ERP would still cover every order.
 *
 * How the pool is split (packages/engine/README.md, "Stock pool"): unit by unit, each unit to the
 * channel with the highest weight ÷ (units it already has + 1) among those still under their own cap
 * (D'Hondt), ties to the channel listed first. So 1–2 units go to the heaviest channels instead of
 * rounding to zero everywhere, a channel held back by its safety stock leaves its units to the others,
 * and, because the offers for a pool of P+1 are those for P plus the new unit(s), one more unit in the
 * ERP never lowers any channel's offer (monotone), which a one-shot proportional split cannot promise.
 */

export type SafetyStock = { units: number } | { percent: number };

export interface ChannelShare {
  channelKey: string;
  /** Held back from this channel: whole units, or a percentage of the pool (rounded up to a unit). */
  safety: SafetyStock;
  /** Relative share of the pool; 1 when absent. */
  weight?: number;
}

export interface StockPoolInput {
  /** The ERP's available stock of the SKU, summed over the warehouses the channels sell from. */
  erpAvailable: number;
  /** Units ordered on any channel and not yet written to the ERP (`pendingOrderQuantities`). */
  pendingNotInErp: number;
  channels: readonly ChannelShare[];
}

export interface StockAllocation {
  /** Units each channel may offer, by channel key. */
  offers: Map<string, number>;
  /** The whole units the channels share. */
  pool: number;
  /** Inputs that were clamped and why (for logs and the preview; not merchant text). */
  clamped: string[];
}

/** Units each channel may offer (see `allocateStockExplained` for the pool and any clamped input). */
export function allocateStock(input: StockPoolInput): Map<string, number> {
  return allocateStockExplained(input).offers;
}

export function allocateStockExplained(input: StockPoolInput): StockAllocation {
  const clamped: string[] = [];
  // Only whole units can be sold: available stock rounds down, pending orders round up (never oversell).
  const available = wholeUnits(input.erpAvailable, "erpAvailable", Math.floor, clamped);
  const pending = wholeUnits(input.pendingNotInErp, "pendingNotInErp", Math.ceil, clamped);
  const pool = Math.max(0, available - pending);

  const seen = new Set<string>();
  const channels = input.channels.map((c) => {
    if (seen.has(c.channelKey)) throw new Error(`allocateStock: channel ${c.channelKey} listed twice`);
    seen.add(c.channelKey);
    return { key: c.channelKey, weight: weightOf(c, clamped), safety: safetyOf(c, clamped) };
  });

  const counts = splitPool(pool, channels);
  const offers = new Map<string, number>();
  for (const [i, c] of channels.entries()) offers.set(c.key, counts[i]!);
  return { offers, pool, clamped };
}

type Safety = { kind: "units"; units: number } | { kind: "percent"; percent: number };
type Channel = { key: string; weight: number; safety: Safety };

function wholeUnits(value: number, name: string, round: (n: number) => number, clamped: string[]) {
  if (!Number.isFinite(value)) {
    clamped.push(`${name} ${value} is not a number: 0`);
    return 0;
  }
  if (value < 0) {
    clamped.push(`${name} ${value} is negative: 0`);
    return 0;
  }
  const whole = round(value);
  if (whole !== value) clamped.push(`${name} ${value} is not whole: ${whole}`);
  return whole;
}

function weightOf(c: ChannelShare, clamped: string[]): number {
  if (c.weight === undefined) return 1;
  if (Number.isFinite(c.weight) && c.weight > 0) return c.weight;
  clamped.push(`${c.channelKey}: weight ${c.weight} is not a positive number: 1`);
  return 1;
}

function safetyOf(c: ChannelShare, clamped: string[]): Safety {
  if ("units" in c.safety) {
    const u = c.safety.units;
    if (!Number.isFinite(u) || u < 0) {
      clamped.push(`${c.channelKey}: safety ${u} units is not a non-negative number: 0`);
      return { kind: "units", units: 0 };
    }
    // Safety stock rounds up: holding back a part of a unit means holding back the unit.
    if (!Number.isInteger(u))
      clamped.push(`${c.channelKey}: safety ${u} units is not whole: ${Math.ceil(u)}`);
    return { kind: "units", units: Math.ceil(u) };
  }
  const p = c.safety.percent;
  if (!Number.isFinite(p) || p < 0 || p > 100) {
    const to = Number.isFinite(p) && p > 100 ? 100 : 0;
    clamped.push(`${c.channelKey}: safety ${p} % is outside 0–100: ${to}`);
    return { kind: "percent", percent: to };
  }
  return { kind: "percent", percent: p };
}

/** The most a channel may offer out of a pool of `pool` units: the pool minus its safety stock. */
function capAt(c: Channel, pool: number): number {
  const held =
    c.safety.kind === "units" ? c.safety.units : Math.ceil(roundTiny((pool * c.safety.percent) / 100));
  return Math.max(0, pool - held);
}

/** 12.000000000000002 → 12: a percentage of a whole pool must not round up a unit on float noise. */
function roundTiny(n: number): number {
  const r = Math.round(n);
  return Math.abs(n - r) < 1e-9 ? r : n;
}

/** True when channel a's next unit comes before channel b's: higher weight ÷ (units + 1), then listed first. */
function before(a: number, b: number, ws: readonly Channel[], counts: readonly number[]): boolean {
  const pa = ws[a]!.weight / (counts[a]! + 1);
  const pb = ws[b]!.weight / (counts[b]! + 1);
  return pa > pb || (pa === pb && a < b);
}

/** D'Hondt apportionment of `units` by weight, no caps: the first `units` of the unit-by-unit order. */
function dHondt(units: number, channels: readonly Channel[]): number[] {
  const total = channels.reduce((s, c) => s + c.weight, 0);
  // Every channel has at least floor(units × share) (lower quota); one less leaves room for float error.
  const counts = channels.map((c) => Math.max(0, Math.floor((units * c.weight) / total) - 1));
  let given = counts.reduce((s, n) => s + n, 0);
  while (given < units) {
    let best = 0;
    for (let i = 1; i < channels.length; i++) if (before(i, best, channels, counts)) best = i;
    counts[best]!++;
    given++;
  }
  return counts;
}

/**
 * The pool split unit by unit as it grows from 0 to `pool`: at each size the new unit (and any unit no
 * channel could take before) goes to the first channel in D'Hondt order still under its cap at that size.
 * Offers only ever grow with the pool, so the result is monotone by construction.
 */
function splitPool(pool: number, channels: readonly Channel[]): number[] {
  const n = channels.length;
  if (n === 0 || pool === 0) return channels.map(() => 0);
  if (n === 1) return [capAt(channels[0]!, pool)];
  // Without safety stock no cap ever binds (a channel never holds more than the pool): plain D'Hondt.
  const noSafety = channels.every(
    (c) => (c.safety.kind === "units" ? c.safety.units : c.safety.percent) === 0,
  );
  if (noSafety) return dHondt(pool, channels);

  // From this size on, no cap can bind again: D'Hondt gives a channel fewer than share × size + n units,
  // and every cap is above that. If the split there is plain D'Hondt's, the rest is D'Hondt too.
  const free = freeFrom(channels);
  const counts = channels.map(() => 0);
  let given = 0;
  let nextCheck = free;
  for (let size = 1; size <= pool; size++) {
    while (given < size) {
      let best = -1;
      for (let i = 0; i < n; i++) {
        if (counts[i]! >= capAt(channels[i]!, size)) continue;
        if (best < 0 || before(i, best, channels, counts)) best = i;
      }
      if (best < 0) break; // every channel at its cap: the unit waits for a larger pool
      counts[best]!++;
      given++;
    }
    if (size >= nextCheck) {
      const plain = dHondt(size, channels);
      if (plain.every((v, i) => v === counts[i])) return dHondt(pool, channels);
      nextCheck = size + 64;
    }
  }
  return counts;
}

/** The pool size from which no channel's cap can bind again (Infinity when a percentage always may). */
function freeFrom(channels: readonly Channel[]): number {
  const n = channels.length;
  const total = channels.reduce((s, c) => s + c.weight, 0);
  let from = 0;
  for (const c of channels) {
    const share = c.weight / total;
    // cap(size) ≥ size × share + n + 1 for every larger size:
    // units: size − s ≥ size × share + n + 1; percent: size − (size × p + 1) ≥ size × share + n + 1.
    const slope = c.safety.kind === "units" ? 1 - share : 1 - c.safety.percent / 100 - share;
    const need = c.safety.kind === "units" ? c.safety.units + n + 1 : n + 2;
    if (slope <= 1e-9) return Number.POSITIVE_INFINITY;
    from = Math.max(from, Math.ceil(need / slope) + 1);
  }
  return from;
}

/**
 * A channel's offer when channels are pushed one at a time (a stock job per channel): its share of the
 * pool, but never more than the pool minus what the other channels show now (what was last pushed to
 * them). Shares computed at different moments do not add up: after sales on one channel the pool
 * shrinks, that channel's new share may grow while another still shows its share of the larger pool
 * (pool 10 split 5 + 5; 4 sold on B: pool 6, B's share is 3, A still shows 5: 8 on sale). Sales since
 * a push only lower a channel's count and are already out of the pool, so the sum stays within it.
 */
export function offerBesideOthers(
  input: StockPoolInput & { channelKey: string; shownByOthers: number },
): number {
  const { offers, pool } = allocateStockExplained(input);
  const share = offers.get(input.channelKey);
  if (share === undefined) throw new Error(`offerBesideOthers: channel ${input.channelKey} is not listed`);
  const others = Number.isFinite(input.shownByOthers) ? Math.max(0, Math.ceil(input.shownByOthers)) : pool;
  return Math.max(0, Math.min(share, pool - others));
}
