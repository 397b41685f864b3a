/**
 * The shared stock pool (issue 37, item 2): property tests over seeded random inputs (fast-check is not
 * a dependency of the server or the engine; the connectors' mulberry32 Prng is), each failure printing
 * the case that broke it. A plain unit-by-unit reference, written here apart from the engine's shortcuts,
 * pins the split itself.
 */
import { Prng } from "@ep/connectors";
import {
  allocateStock,
  allocateStockExplained,
  type ChannelShare,
  offerBesideOthers,
  type StockPoolInput,
} from "@ep/engine";
import { describe, expect, it } from "vitest";

const CASES = 1500;

function randomChannels(rng: Prng, wild: boolean): ChannelShare[] {
  const n = rng.int(1, 4);
  return Array.from({ length: n }, (_, i) => {
    const safety = rng.chance(0.3)
      ? { units: 0 }
      : rng.chance(0.5)
        ? { units: wild && rng.chance(0.1) ? rng.pick([-3, Number.NaN, 2.5]) : rng.int(0, 25) }
        : { percent: wild && rng.chance(0.1) ? rng.pick([-10, 150, Number.NaN]) : rng.int(0, 80) };
    const weight = rng.chance(0.4)
      ? undefined
      : wild && rng.chance(0.1)
        ? rng.pick([0, -1, Number.NaN])
        : rng.pick([0.5, 1, 1, 2, 3, 5]);
    return { channelKey: `ch${i}`, safety, ...(weight === undefined ? {} : { weight }) };
  });
}

function randomInput(rng: Prng, wild = false): StockPoolInput {
  const erpAvailable =
    wild && rng.chance(0.1) ? rng.pick([-5, Number.NaN, 7.6, Number.POSITIVE_INFINITY]) : rng.int(0, 400);
  const pendingNotInErp = wild && rng.chance(0.1) ? rng.pick([-2, 1.2, Number.NaN]) : rng.int(0, 40);
  return { erpAvailable, pendingNotInErp, channels: randomChannels(rng, wild) };
}

/** What a channel's safety holds back from a pool of whole units, as the merchant reads the setting. */
function held(safety: ChannelShare["safety"], pool: number): number {
  if ("units" in safety)
    return Number.isFinite(safety.units) && safety.units > 0 ? Math.ceil(safety.units) : 0;
  const p = Number.isFinite(safety.percent) ? Math.min(100, Math.max(0, safety.percent)) : 0;
  return Math.ceil((pool * Math.round(p * 1000)) / 100_000 - 1e-9);
}

/** The split by its definition: D'Hondt unit by unit as the pool grows, compared in exact integers. */
function reference(pool: number, channels: readonly ChannelShare[]): number[] {
  const w = channels.map((c) =>
    c.weight !== undefined && Number.isFinite(c.weight) && c.weight > 0 ? c.weight : 1,
  );
  // Weights here are halves at most: doubled they are integers, so priorities compare exactly.
  const iw = w.map((x) => Math.round(x * 2));
  const counts = channels.map(() => 0);
  let given = 0;
  for (let size = 1; size <= pool; size++) {
    while (given < size) {
      let best = -1;
      for (let i = 0; i < channels.length; i++) {
        if (counts[i]! >= Math.max(0, size - held(channels[i]!.safety, size))) continue;
        if (best < 0) {
          best = i;
          continue;
        }
        // iw[i] / (counts[i] + 1) > iw[best] / (counts[best] + 1), ties to the one listed first.
        if (iw[i]! * (counts[best]! + 1) > iw[best]! * (counts[i]! + 1)) best = i;
      }
      if (best < 0) break;
      counts[best]!++;
      given++;
    }
  }
  return counts;
}

const show = (input: StockPoolInput) =>
  JSON.stringify(input, (_, v) => (typeof v === "number" && !Number.isFinite(v) ? String(v) : v));

describe("allocateStock", () => {
  it("offers whole, non-negative units that together never exceed the pool, within every safety stock", () => {
    const rng = new Prng(3701);
    for (let c = 0; c < CASES; c++) {
      const input = randomInput(rng, true);
      const { offers, pool } = allocateStockExplained(input);
      const expectedPool = Math.max(
        0,
        (Number.isFinite(input.erpAvailable) && input.erpAvailable > 0 ? Math.floor(input.erpAvailable) : 0) -
          (Number.isFinite(input.pendingNotInErp) && input.pendingNotInErp > 0
            ? Math.ceil(input.pendingNotInErp)
            : 0),
      );
      const where = show(input);
      expect(pool, where).toBe(expectedPool);
      let sum = 0;
      for (const ch of input.channels) {
        const offer = offers.get(ch.channelKey)!;
        expect(Number.isInteger(offer), where).toBe(true);
        expect(offer, where).toBeGreaterThanOrEqual(0);
        expect(offer, where).toBeLessThanOrEqual(Math.max(0, pool - held(ch.safety, pool)));
        sum += offer;
      }
      expect(sum, where).toBeLessThanOrEqual(pool);
      // Nothing is wasted: either the whole pool is offered or some channel is at its own cap.
      const largestCap = Math.max(0, ...input.channels.map((ch) => pool - held(ch.safety, pool)));
      expect(sum, where).toBeGreaterThanOrEqual(Math.min(pool, largestCap));
    }
  });

  it("never lowers a channel's offer when the ERP holds more, nor raises it when more is pending", () => {
    const rng = new Prng(3702);
    for (let c = 0; c < CASES; c++) {
      const input = randomInput(rng);
      const more = { ...input, erpAvailable: input.erpAvailable + rng.int(1, 30) };
      const pending = { ...input, pendingNotInErp: input.pendingNotInErp + rng.int(1, 30) };
      const base = allocateStock(input);
      const up = allocateStock(more);
      const down = allocateStock(pending);
      for (const ch of input.channels) {
        expect(up.get(ch.channelKey)!, show(more)).toBeGreaterThanOrEqual(base.get(ch.channelKey)!);
        expect(down.get(ch.channelKey)!, show(pending)).toBeLessThanOrEqual(base.get(ch.channelKey)!);
      }
    }
  });

  it("is monotone one unit at a time over a whole range (the caps and the split move together)", () => {
    const rng = new Prng(3703);
    for (let c = 0; c < 60; c++) {
      const channels = randomChannels(rng, false);
      let last = channels.map(() => 0);
      for (let erp = 0; erp <= 300; erp++) {
        const offers = allocateStock({ erpAvailable: erp, pendingNotInErp: 0, channels });
        const now = channels.map((ch) => offers.get(ch.channelKey)!);
        now.forEach((v, i) => {
          expect(v, `${JSON.stringify(channels)} at ${erp}`).toBeGreaterThanOrEqual(last[i]!);
        });
        last = now;
      }
    }
  });

  it("splits as D'Hondt unit by unit, shortcuts included (pools up to 3,000)", () => {
    const rng = new Prng(3704);
    for (let c = 0; c < 300; c++) {
      const input = {
        ...randomInput(rng),
        erpAvailable: rng.chance(0.2) ? rng.int(500, 3000) : rng.int(0, 300),
      };
      const { offers, pool } = allocateStockExplained(input);
      expect(
        input.channels.map((ch) => offers.get(ch.channelKey)),
        show(input),
      ).toEqual(reference(pool, input.channels));
    }
  });

  it("puts a pool of one or two units on the heaviest channels instead of rounding it away", () => {
    const channels: ChannelShare[] = [
      { channelKey: "shop", safety: { units: 0 }, weight: 1 },
      { channelKey: "trendyol", safety: { units: 0 }, weight: 3 },
      { channelKey: "hepsiburada", safety: { units: 0 }, weight: 2 },
    ];
    const one = allocateStock({ erpAvailable: 1, pendingNotInErp: 0, channels });
    expect([...one]).toEqual([
      ["shop", 0],
      ["trendyol", 1],
      ["hepsiburada", 0],
    ]);
    const two = allocateStock({ erpAvailable: 2, pendingNotInErp: 0, channels });
    expect([...two]).toEqual([
      ["shop", 0],
      ["trendyol", 1],
      ["hepsiburada", 1],
    ]);
    // Equal weights: the channel listed first.
    const equal = channels.map((c) => ({ ...c, weight: undefined }));
    expect(allocateStock({ erpAvailable: 1, pendingNotInErp: 0, channels: equal }).get("shop")).toBe(1);
    // The heaviest channel's safety stock passes the unit to the next one.
    const guarded = channels.map((c) => (c.channelKey === "trendyol" ? { ...c, safety: { units: 5 } } : c));
    expect([...allocateStock({ erpAvailable: 1, pendingNotInErp: 0, channels: guarded })]).toEqual([
      ["shop", 0],
      ["trendyol", 0],
      ["hepsiburada", 1],
    ]);
  });

  it("shares a large pool by weight and subtracts pending orders first", () => {
    const offers = allocateStock({
      erpAvailable: 1000,
      pendingNotInErp: 100,
      channels: [
        { channelKey: "shop", safety: { units: 0 } },
        { channelKey: "trendyol", safety: { percent: 10 }, weight: 2 },
      ],
    });
    expect([...offers]).toEqual([
      ["shop", 300],
      ["trendyol", 600],
    ]);
    // One channel alone offers the pool minus its safety stock.
    const alone = allocateStock({
      erpAvailable: 50,
      pendingNotInErp: 8,
      channels: [{ channelKey: "shop", safety: { percent: 10 } }],
    });
    expect(alone.get("shop")).toBe(37); // pool 42, 10 % of it is 4.2 → 5 held back
  });

  it("clamps what cannot be stock and says why", () => {
    const { offers, pool, clamped } = allocateStockExplained({
      erpAvailable: 10.7,
      pendingNotInErp: Number.NaN,
      channels: [
        { channelKey: "a", safety: { units: -2 }, weight: -1 },
        { channelKey: "b", safety: { percent: 140 } },
      ],
    });
    expect(pool).toBe(10);
    expect([...offers]).toEqual([
      ["a", 10],
      ["b", 0],
    ]);
    expect(clamped).toEqual([
      "erpAvailable 10.7 is not whole: 10",
      "pendingNotInErp NaN is not a number: 0",
      "a: weight -1 is not a positive number: 1",
      "a: safety -2 units is not a non-negative number: 0",
      "b: safety 140 % is outside 0–100: 100",
    ]);
    expect(allocateStockExplained({ erpAvailable: -4, pendingNotInErp: 1.5, channels: [] })).toEqual({
      offers: new Map(),
      pool: 0,
      clamped: ["erpAvailable -4 is negative: 0", "pendingNotInErp 1.5 is not whole: 2"],
    });
    expect(() =>
      allocateStock({
        erpAvailable: 1,
        pendingNotInErp: 0,
        channels: [
          { channelKey: "x", safety: { units: 0 } },
          { channelKey: "x", safety: { units: 0 } },
        ],
      }),
    ).toThrow(/listed twice/);
  });

  it("answers a pool of a million units, with a percentage that binds all the way", () => {
    const offers = allocateStock({
      erpAvailable: 1_000_000,
      pendingNotInErp: 0,
      channels: [
        { channelKey: "shop", safety: { units: 0 } },
        { channelKey: "trendyol", safety: { percent: 60 } },
      ],
    });
    // Trendyol may offer at most 40 %: the shop takes the rest.
    expect([...offers]).toEqual([
      ["shop", 600_000],
      ["trendyol", 400_000],
    ]);
  });

  it("pushed one channel at a time, stays within the pool beside what the others still show", () => {
    const shares: ChannelShare[] = [
      { channelKey: "shop", safety: { units: 0 } },
      { channelKey: "trendyol", safety: { units: 1 }, weight: 2 },
      { channelKey: "hepsiburada", safety: { percent: 10 } },
    ];
    /** Sales, transfers to the ERP, restocks and per-channel stock runs in a seeded order. */
    const play = (seed: number, beside: boolean) => {
      const rng = new Prng(seed);
      let erp = rng.int(0, 30);
      let received = erp;
      let pending = 0;
      let sold = 0;
      const shown = shares.map(() => 0);
      const pushed = shares.map(() => 0);
      for (let step = 0; step < 400; step++) {
        const c = rng.int(0, shares.length - 1);
        const roll = rng.next();
        if (roll < 0.5) {
          const qty = rng.int(1, 3);
          if (shown[c]! >= qty) {
            shown[c]! -= qty;
            pending += qty;
            sold += qty;
          }
        } else if (roll < 0.65) {
          const moved = rng.int(0, pending);
          pending -= moved;
          erp -= moved;
        } else if (roll < 0.7) {
          const more = rng.int(1, 10);
          erp += more;
          received += more;
        } else {
          const input = { erpAvailable: erp, pendingNotInErp: pending, channels: shares };
          const key = shares[c]!.channelKey;
          const others = pushed.reduce((sum, n, j) => (j === c ? sum : sum + n), 0);
          const offer = beside
            ? offerBesideOthers({ ...input, channelKey: key, shownByOthers: others })
            : allocateStock(input).get(key)!;
          shown[c] = offer;
          pushed[c] = offer;
        }
        if (sold > received || shown.reduce((a, b) => a + b, 0) > erp - pending) return { ok: false, sold };
      }
      return { ok: true, sold };
    };
    let soldAll = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const run = play(seed, true);
      expect(run.ok, `seed ${seed}`).toBe(true);
      soldAll += run.sold;
    }
    expect(soldAll).toBeGreaterThan(300 * 10);
    // Each channel's own share pushed alone goes over (pool 10 as 5 + 5, 4 sold on one: 6 left, 8 shown).
    expect(Array.from({ length: 300 }, (_, i) => play(i + 1, false).ok)).toContain(false);
    expect(
      offerBesideOthers({
        erpAvailable: 10,
        pendingNotInErp: 4,
        channels: [
          { channelKey: "a", safety: { units: 0 } },
          { channelKey: "b", safety: { units: 0 } },
        ],
        channelKey: "b",
        shownByOthers: 5,
      }),
    ).toBe(1);
  });
});
