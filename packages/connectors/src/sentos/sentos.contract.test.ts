/**
 * Sentos connector against its emulator: reads (products, warehouses, orders), writes refused in Turkish,
 * faults (429 with Retry-After, 5xx, timeout, bad credentials), and the published limits in a full run with
 * the window scaled 1:100 (one minute → 600 ms) on both sides. Every request is judged at the end.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext, ShopConnector } from "../sdk/connector";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import { expectConformance, expectShopWritesRefused } from "../testing/contract-suite";
import type { RecordedRequest } from "../testing/recorder";
import { judgeWithRules } from "../testing/runtime-rules";
import { expectPinnedVersionSupported } from "../testing/version-pin";
import { createSentosConnector } from "./connector";
import { SENTOS_IDENTICAL_GETS_PER_WINDOW, SENTOS_POSTS_PER_WINDOW } from "./descriptor";
import { type SentosEmulator, startSentosEmulator } from "./emulator/server";
import { judgeSentosRequest } from "./judge/requests";
import { SENTOS_VERSION_PIN, type SentosGetLimitReading, sentosRules } from "./judge/rules";

const WINDOW = 600;
let emu: SentosEmulator;
let shop: ShopConnector;
const judged: RecordedRequest[] = [];

function ctx(over: Partial<ConnectorContext> = {}): ConnectorContext {
  return {
    companyId: "c1",
    rateLimitStore: new InMemoryRateLimitStore(),
    budget: { requests: SENTOS_POSTS_PER_WINDOW, windowMs: WINDOW },
    timeoutMs: 2000,
    retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5, maxRetryAfterMs: 5000 },
    ...over,
  };
}

/** Most requests in any window of `ms` (arrival times, sorted). */
function peak(times: number[], ms: number): number {
  const t = [...times].sort((a, b) => a - b);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < t.length; hi++) {
    while ((t[hi] ?? 0) - (t[lo] ?? 0) >= ms) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

/** Requests the runtime rules of one side refuse (the schema judge runs beside them). */
const refusedByRules = (rs: RecordedRequest[], side: SentosGetLimitReading) =>
  judgeWithRules(rs, judgeSentosRequest, sentosRules(WINDOW), { side }).failures;

/** Every read the connector makes in a run: connection, every product page, warehouses, every order page. */
async function fullRun(conn: ShopConnector): Promise<{ orders: number }> {
  await conn.testConnection();
  await conn.findProductsBySku(["YOK"]);
  for (let i = 0; i < 3; i++) await conn.listStockLocations(); // the same GET three times
  let orders = 0;
  let token: string | undefined;
  do {
    const page = await conn.listOrders({ pageToken: token });
    orders += page.items.length;
    token = page.nextPageToken;
  } while (token);
  return { orders };
}

beforeAll(async () => {
  emu = await startSentosEmulator({ seed: 3, productCount: 1500, orderCount: 250, windowMs: WINDOW });
  shop = createSentosConnector(emu.credentials, ctx());
});

afterAll(async () => {
  judged.push(...emu.recorder.list());
  // The schema judge and the runtime rules of the side this emulator plays, over every request it saw.
  const report = judgeWithRules(judged, judgeSentosRequest, sentosRules(WINDOW), { side: "identical" });
  await emu.close();
  expectConformance("sentos", report);
});

describe("Sentos reads", () => {
  it("connects with Basic Auth and says it only reads", async () => {
    const info = await shop.testConnection();
    expect(info.description).toContain("yalnızca okuma");
  });

  it("finds products and variants by SKU", async () => {
    const single = emu.products.find((p) => (p.variants as unknown[]).length === 0);
    const multi = emu.products.find((p) => (p.variants as unknown[]).length > 0);
    const variant = ((multi?.variants ?? []) as Array<{ id: number; sku: string }>)[0];
    const ids = await shop.findProductsBySku([String(single?.sku), String(variant?.sku), "YOK-1"]);
    expect(ids.get(String(single?.sku))).toEqual({
      productId: String(single?.id),
      variantId: String(single?.id),
    });
    expect(ids.get(String(variant?.sku))).toEqual({
      productId: String(multi?.id),
      variantId: String(variant?.id),
    });
    expect(ids.has("YOK-1")).toBe(false);
  });

  it("reads warehouses and every order with lines", async () => {
    expect((await shop.listStockLocations()).map((w) => w.name)).toEqual(["Merkez Depo", "Ankara Depo"]);
    const shipped = emu.shipOrder(9003, "ARAS-9003");
    const all = [];
    let token: string | undefined;
    do {
      const page = await shop.listOrders({ pageToken: token });
      all.push(...page.items);
      token = page.nextPageToken;
    } while (token);
    expect(all).toHaveLength(250);
    expect(all[0]?.lines[0]?.sku).toMatch(/^STK-/);
    expect(all[0]?.customer.email).toContain("@");
    // Internet-sale data: payment_method by name, the order date for a card, the carrier and the shipment.
    const byId = new Map(all.map((o) => [o.id, o]));
    const shippedOn = new Date(`${String(shipped?.updated_at).replace(" ", "T")}Z`);
    expect(byId.get("9003")?.payment).toEqual({
      means: "KREDIKARTI/BANKAKARTI",
      date: new Date(Date.parse(`${String(shipped?.order_date).replace(" ", "T")}Z`) + 3 * 3_600_000)
        .toISOString()
        .slice(0, 10),
    });
    expect(byId.get("9003")?.delivery).toEqual({
      carrier: shipped?.cargo_provider,
      trackingNumber: "ARAS-9003",
      dispatchDate: new Date(shippedOn.getTime() + 3 * 3_600_000).toISOString().slice(0, 10),
    });
    expect(byId.get("9001")?.payment).toEqual({ means: "EFT/HAVALE" });
    expect(byId.get("9002")?.payment).toEqual({ means: "KAPIDAODEME" });
    expect(byId.get("9002")?.delivery).toEqual({ carrier: emu.orders[1]?.cargo_provider });
  });

  it("refuses every write in Turkish, without calling Sentos", async () => {
    await expectShopWritesRefused(shop, () => emu.counters.writes, /yalnızca .*okur/);
  });
});

describe("Sentos limits in a full run (window scaled 1:100)", () => {
  it("stays within 12 per window overall and the same GET twice per window", async () => {
    judged.push(...emu.recorder.list());
    emu.recorder.clear();
    // A window's rest from earlier tests must not count against this run.
    await new Promise((r) => setTimeout(r, WINDOW + 100));
    const fresh = createSentosConnector(emu.credentials, ctx());
    const started = Date.now();
    await fullRun(fresh);
    const elapsed = Date.now() - started;
    const recorded = emu.recorder.list();
    judged.push(...recorded);
    emu.recorder.clear();
    const byUrl = new Map<string, number[]>();
    for (const r of recorded) {
      const key = `${r.path}?${new URLSearchParams(r.query as Record<string, string>).toString()}`;
      byUrl.set(key, [...(byUrl.get(key) ?? []), r.at]);
    }
    const overall = peak(
      recorded.map((r) => r.at),
      WINDOW,
    );
    const identical = Math.max(...[...byUrl.values()].map((t) => peak(t, WINDOW)));
    console.log(
      `sentos full run: ${recorded.length} requests in ${elapsed} ms; peak ${overall} per ${WINDOW} ms window (limit ${SENTOS_POSTS_PER_WINDOW}), ` +
        `peak same GET ${identical} per window (limit ${SENTOS_IDENTICAL_GETS_PER_WINDOW}), 429s ${emu.counters.rateLimitViolations}`,
    );
    expect(recorded.length).toBeGreaterThan(SENTOS_POSTS_PER_WINDOW);
    expect(overall).toBeLessThanOrEqual(SENTOS_POSTS_PER_WINDOW);
    expect(identical).toBeLessThanOrEqual(SENTOS_IDENTICAL_GETS_PER_WINDOW);
    expect(emu.counters.rateLimitViolations).toBe(0);
    expect(refusedByRules(recorded, "identical")).toEqual([]);
  });

  it("retries of the same GET count against its limit: no 429 after two 5xx", async () => {
    judged.push(...emu.recorder.list());
    emu.recorder.clear();
    await new Promise((r) => setTimeout(r, WINDOW + 100));
    const before = emu.counters.rateLimitViolations;
    emu.faults.set({
      queue: [
        { kind: "5xx", operation: "listWarehouses" },
        { kind: "5xx", operation: "listWarehouses" },
      ],
    });
    const fresh = createSentosConnector(emu.credentials, ctx({ companyId: "c5" }));
    expect(await fresh.listStockLocations()).toHaveLength(2);
    const times = emu.recorder.list().map((r) => r.at);
    expect(times).toHaveLength(3);
    // The third attempt waited for the window: two sends of the same URL at most per window.
    expect(peak(times, WINDOW)).toBeLessThanOrEqual(SENTOS_IDENTICAL_GETS_PER_WINDOW);
    expect(emu.counters.rateLimitViolations).toBe(before);
    emu.faults.clear();
    judged.push(...emu.recorder.list());
    emu.recorder.clear();
  });

  it("a client without the same-GET limit would be refused: the emulator enforces it", async () => {
    const before = emu.counters.identicalGetViolations;
    const auth = `Basic ${Buffer.from(`${emu.credentials.apiKey}:${emu.credentials.apiSecret}`).toString("base64")}`;
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${emu.credentials.apiUrl}/orders/9001`, { headers: { authorization: auth } });
      statuses.push(res.status);
      if (res.status === 429) expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(emu.counters.identicalGetViolations).toBe(before + 1);
    const post = await fetch(`${emu.credentials.apiUrl}/products/price`, {
      method: "POST",
      headers: { authorization: auth },
    });
    expect(post.status).toBe(405);
    emu.recorder.clear(); // hand-made requests are not the connector's
  });
});

describe("Sentos under both readings of its GET limit (sources disagree: rules.ts)", () => {
  for (const reading of ["identical", "all"] as SentosGetLimitReading[]) {
    it(`reads everything when the service counts GETs ${reading === "all" ? "over all URLs" : "per URL"}, with at most one 429`, async () => {
      const other = await startSentosEmulator({
        seed: 4,
        productCount: 400,
        orderCount: 60,
        windowMs: WINDOW,
        getLimit: reading,
      });
      try {
        const conn = createSentosConnector(other.credentials, ctx({ companyId: `c-${reading}` }));
        const started = Date.now();
        const { orders } = await fullRun(conn);
        const sent = other.recorder.list();
        const refused = refusedByRules(sent, reading);
        console.log(
          `sentos reading '${reading}': ${sent.length} requests in ${Date.now() - started} ms, ${other.counters.rateLimitViolations} answered 429, ${refused.length} refused by the rules`,
        );
        expect(orders).toBe(60);
        // Nothing lost or doubled: each order page once, every product page read.
        expect(sent.filter((r) => r.path.endsWith("/orders")).length).toBeGreaterThan(0);
        // The per-URL reading never sees a 429; the all-GET reading teaches the connector once.
        expect(other.counters.rateLimitViolations).toBeLessThanOrEqual(reading === "all" ? 1 : 0);
        expect(refused.length).toBe(other.counters.rateLimitViolations);
      } finally {
        await other.close();
      }
    });
  }
});

describe("Sentos faults", () => {
  it("retries after 429 with Retry-After, 5xx and a timeout", async () => {
    emu.faults.set({
      hangMs: 3000,
      queue: [
        { kind: "429", operation: "listWarehouses" },
        { kind: "5xx", operation: "listWarehouses" },
      ],
    });
    const quick = createSentosConnector(emu.credentials, ctx({ companyId: "c2" }));
    expect(await quick.listStockLocations()).toHaveLength(2);
    emu.faults.set({ hangMs: 3000, queue: [{ kind: "timeout", operation: "listProducts" }] });
    const slow = createSentosConnector(emu.credentials, ctx({ companyId: "c3", timeoutMs: 300 }));
    expect((await slow.testConnection()).ok).toBe(true);
    emu.faults.clear();
  });

  it("wrong credentials are an auth failure", async () => {
    // Another account in real life: its request must not share the previous test's window.
    await new Promise((r) => setTimeout(r, WINDOW + 100));
    const bad = createSentosConnector({ ...emu.credentials, apiSecret: "yanlis" }, ctx({ companyId: "c4" }));
    await expect(bad.testConnection()).rejects.toMatchObject({ reason: "auth", httpStatus: 401 });
  });
});

describe("Sentos API: version pin", () => {
  it("speaks a supported API version", () => expectPinnedVersionSupported(SENTOS_VERSION_PIN));
});
