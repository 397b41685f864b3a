/**
 * The batch writer's own rules (issue 41), in memory: a scripted shop whose every batch answers when the
 * test says so, a ledger that records what it is given. `batch-pipeline.test.ts` runs the same writer
 * against the IKAS emulator and the real ledger; this one pins the counts and orders exactly (slots,
 * batches held, which batch waits for which) without a database, so each rule fails on its own.
 */
import { type BatchResult, ConnectorError, type ErpConnector, type ShopConnector } from "@ep/connectors";
import { BatchWriter, type FlowContext, type PendingWrite, RunTally, type SyncLedger } from "@ep/engine";
import { describe, expect, it } from "vitest";

type Item = { sku: string; qty: number };
type Answer = { failed?: { key: string; error: ConnectorError }[]; throws?: unknown };

/** One batch the shop was sent; it answers when `answer` is called. */
type Sent = { items: Item[]; answer: (a?: Answer) => void; done: boolean };

function harness(budget?: { requests: number; windowMs: number }) {
  const sent: Sent[] = [];
  const puts: { entity: string; rows: { key: string; hash: string }[] }[] = [];
  const events: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const send = (items: Item[]) =>
    new Promise<BatchResult>((resolve, reject) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const label = items.map((i) => `${i.sku}=${i.qty}`).join(",");
      events.push(`start ${label}`);
      const batch: Sent = {
        items,
        done: false,
        answer: (a = {}) => {
          batch.done = true;
          inFlight--;
          events.push(`end ${label}`);
          if (a.throws !== undefined) reject(a.throws);
          else {
            const failed = a.failed ?? [];
            resolve({ applied: items.length - failed.length, failed, calls: 1 });
          }
        },
      };
      sent.push(batch);
    });
  const ledger = {
    put: async (entity: string, rows: { key: string; hash: string }[]) => {
      puts.push({ entity, rows });
    },
  } as unknown as SyncLedger;
  const ctx = {
    companyId: 1,
    erp: { descriptor: { system: "mikro", name: "Mikro" } } as unknown as ErpConnector,
    shop: { descriptor: { system: "ikas", name: "İkas", budget } } as unknown as ShopConnector,
    ledger,
    tally: new RunTally(),
  } as unknown as FlowContext;
  return {
    ctx,
    send,
    sent,
    puts,
    events,
    get maxInFlight() {
      return maxInFlight;
    },
    /** Answers every batch sent and not answered yet, again until none is left. */
    async answerAll() {
      for (;;) {
        await tick();
        const open = sent.filter((s) => !s.done);
        if (open.length === 0) return;
        for (const s of open) s.answer();
      }
    },
  };
}

/** Lets every promise that can settle settle (the writer's chains are all in memory). */
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Whether `p` has settled after the microtasks ran out. */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false;
  p.then(
    () => {
      done = true;
    },
    () => {
      done = true;
    },
  );
  await tick();
  await tick();
  return done;
}

const write = (sku: string, qty: number, ledgerKey?: string): PendingWrite<Item> => ({
  key: sku,
  ...(ledgerKey ? { ledgerKey } : {}),
  hash: `h${qty}`,
  item: { sku, qty },
});

const writer = (h: ReturnType<typeof harness>, batchSize: number, options = {}) =>
  new BatchWriter<Item>(h.ctx, "stock", batchSize, h.send, (i) => i.sku, options);

/** Adds writes until one `add` does not return (the writer holds all it may): how many batches it took. */
async function batchesHeld(w: BatchWriter<Item>, batchSize: number): Promise<number> {
  for (let n = 0; n < 100; n++) {
    let last: Promise<void> = Promise.resolve();
    for (let i = 0; i < batchSize; i++) last = w.add(write(`S${n}-${i}`, 1));
    if (!(await settled(last))) return n;
  }
  throw new Error("the writer never waited");
}

describe("batches and slots", () => {
  it("sends a batch as soon as it is full, the rest on flush; records what landed under its ledger key", async () => {
    const h = harness();
    const w = writer(h, 3);
    await w.add(write("A", 1, "A@1"));
    await w.add(write("B", 2, "B@1"));
    await tick();
    expect(h.sent).toHaveLength(0);
    await w.add(write("C", 3, "C@1"));
    await tick();
    expect(h.sent.map((s) => s.items)).toEqual([
      [
        { sku: "A", qty: 1 },
        { sku: "B", qty: 2 },
        { sku: "C", qty: 3 },
      ],
    ]);
    await w.add(write("D", 4));
    const flushed = w.flush();
    await tick();
    expect(h.sent).toHaveLength(2);
    expect(await settled(flushed)).toBe(false);
    await h.answerAll();
    await flushed;
    expect(h.puts).toEqual([
      {
        entity: "stock",
        rows: [
          { key: "A@1", hash: "h1" },
          { key: "B@1", hash: "h2" },
          { key: "C@1", hash: "h3" },
        ],
      },
      { entity: "stock", rows: [{ key: "D", hash: "h4" }] },
    ]);
    expect(h.ctx.tally.counts.written).toBe(4);
    expect(h.ctx.tally.movedKeys).toEqual(["A", "B", "C", "D"]);
    expect(w.transientLeft).toBe(0);
  });

  it("a record queued twice in one batch goes out once with its last value; two locations of one SKU are two records", async () => {
    const h = harness();
    const w = writer(h, 4);
    await w.add(write("A", 1));
    await w.add(write("B", 1));
    await w.add(write("A", 2));
    await w.add(write("C", 1));
    const located = writer(h, 2);
    await located.add(write("D", 1, "D@1"));
    await located.add(write("D", 2, "D@2"));
    await tick();
    expect(h.sent.map((s) => s.items.map((i) => `${i.sku}=${i.qty}`))).toEqual([
      ["A=2", "B=1", "C=1"],
      ["D=1", "D=2"],
    ]);
    await h.answerAll();
    await w.flush();
    await located.flush();
    expect(h.puts.map((p) => p.rows.map((r) => `${r.key}:${r.hash}`))).toEqual([
      ["A:h2", "B:h1", "C:h1"],
      ["D@1:h1", "D@2:h2"],
    ]);
  });

  it("keeps at most `inFlight` batches at the shop: 8 by default, never more than the shop's request budget, at least 1", async () => {
    for (const [budget, options, want] of [
      [undefined, {}, 8],
      [undefined, { inFlight: 3 }, 3],
      [{ requests: 2, windowMs: 1000 }, {}, 2],
      [{ requests: 5, windowMs: 1000 }, { inFlight: 3 }, 3],
      [undefined, { inFlight: 0 }, 1],
    ] as const) {
      const h = harness(budget);
      const w = writer(h, 1, { ...options, waiting: 20 });
      for (let i = 0; i < 12; i++) await w.add(write(`S${i}`, 1));
      await tick();
      expect(h.sent.length, JSON.stringify({ budget, options })).toBe(want);
      // A slot freed lets exactly one more go.
      h.sent[0]!.answer();
      await tick();
      expect(h.sent.length, JSON.stringify({ budget, options })).toBe(want + 1);
      const flushed = w.flush();
      await h.answerAll();
      await flushed;
      expect(h.maxInFlight).toBe(want);
      expect(h.sent).toHaveLength(12);
      expect(h.ctx.tally.counts.written).toBe(12);
    }
  });

  it("holds `waiting` full batches besides those in flight, then `add` waits until one is answered", async () => {
    const h = harness();
    const w = writer(h, 2, { inFlight: 2, waiting: 3 });
    expect(await batchesHeld(w, 2)).toBe(5);
    expect(h.sent).toHaveLength(2);
    h.sent[0]!.answer();
    await tick();
    // The answered batch freed a place: the waiting `add` returned and its batch waits for a slot.
    expect(h.sent).toHaveLength(3);
    expect(await settled(w.add(write("X", 1)))).toBe(true);
    expect(await settled(w.add(write("Y", 1)))).toBe(false);

    const none = harness();
    expect(await batchesHeld(writer(none, 2, { inFlight: 2, waiting: -4 }), 2)).toBe(2);
  });

  it("by default holds as many batches as make 32,000 records, at most one budget window, at least 2 besides those in flight", async () => {
    // 32,000 / 3,000 is 10 whole batches: 3 in flight and 7 waiting.
    expect(await batchesHeld(writer(harness(), 3000, { inFlight: 3 }), 3000)).toBe(10);
    // A budget of 3 requests a window: 3 in flight, and still 2 waiting besides.
    expect(await batchesHeld(writer(harness({ requests: 3, windowMs: 1000 }), 100), 100)).toBe(5);
    // A budget of 6: one window's worth in all (2 in flight, 4 waiting), not 32,000 records' worth.
    expect(
      await batchesHeld(writer(harness({ requests: 6, windowMs: 1000 }), 100, { inFlight: 2 }), 100),
    ).toBe(6);
  });
});

describe("answers", () => {
  it("files a refused record as a failed task with its payload, leaves a transient one for the next run, records the rest", async () => {
    const h = harness();
    const w = writer(h, 3, { failurePayload: (i: Item) => ({ only: i.sku }) });
    await w.add(write("A", 1, "A@1"));
    await w.add(write("B", 1, "B@1"));
    await w.add(write("C", 1, "C@1"));
    await tick();
    h.sent[0]!.answer({
      failed: [
        { key: "A", error: new ConnectorError("Varyant yok", { reason: "not_found" }) },
        { key: "C", error: new ConnectorError("zaman aşımı", { reason: "timeout" }) },
      ],
    });
    await w.flush();
    expect(h.puts).toEqual([{ entity: "stock", rows: [{ key: "B@1", hash: "h1" }] }]);
    expect(h.ctx.tally.counts).toMatchObject({ written: 1, failed: 1 });
    expect(h.ctx.tally.failures).toMatchObject([
      { key: "A", errorType: "not_found", payload: { only: "A" } },
    ]);
    expect(w.transientLeft).toBe(1);

    // Without `failurePayload` the failed task keeps the item itself.
    const plain = harness();
    const p = writer(plain, 1);
    await p.add(write("D", 7));
    await tick();
    plain.sent[0]!.answer({
      failed: [{ key: "D", error: new ConnectorError("Varyant yok", { reason: "not_found" }) }],
    });
    await p.flush();
    expect(plain.ctx.tally.failures).toMatchObject([{ key: "D", payload: { sku: "D", qty: 7 } }]);
    expect(plain.puts).toEqual([{ entity: "stock", rows: [] }]);
  });

  it("records each batch as soon as it is answered, whatever the order of the answers", async () => {
    const h = harness();
    const w = writer(h, 1, { inFlight: 3 });
    for (const sku of ["A", "B", "C"]) await w.add(write(sku, 1));
    await tick();
    h.sent[2]!.answer();
    await tick();
    expect(h.puts.map((p) => p.rows[0]!.key)).toEqual(["C"]);
    h.sent[0]!.answer();
    await tick();
    expect(h.puts.map((p) => p.rows[0]!.key)).toEqual(["C", "A"]);
    h.sent[1]!.answer();
    await w.flush();
    expect(h.puts.map((p) => p.rows[0]!.key)).toEqual(["C", "A", "B"]);
  });

  it("drain waits for every batch sent or waiting, and rethrows nothing", async () => {
    const h = harness();
    const w = writer(h, 1, { inFlight: 1, waiting: 2 });
    for (const sku of ["A", "B"]) await w.add(write(sku, 1));
    const drained = w.drain();
    expect(await settled(drained)).toBe(false);
    h.sent[0]!.answer({ throws: new Error("kayıp cevap") });
    await tick();
    expect(await settled(drained)).toBe(true);
    // The batch waiting behind the failed one was never sent.
    expect(h.sent).toHaveLength(1);
    await expect(w.flush()).rejects.toThrow("kayıp cevap");
  });
});

describe("a record in two batches, and a failure", () => {
  it("a batch holding a record still in flight waits for that batch; one that does not is not held back", async () => {
    const h = harness();
    const w = writer(h, 1, { inFlight: 4, waiting: 4 });
    await w.add(write("A", 1));
    await w.add(write("A", 2));
    await w.add(write("B", 1));
    await tick();
    expect(h.events).toEqual(["start A=1", "start B=1"]);
    h.sent[0]!.answer();
    await tick();
    expect(h.events.slice(2)).toEqual(["end A=1", "start A=2"]);
    // A third value of A while A=2 is in flight: it waits for A=2, not only for A=1 (long answered).
    await w.add(write("A", 3));
    await tick();
    expect(h.events.filter((e) => e === "start A=3")).toEqual([]);
    h.sent[2]!.answer();
    await tick();
    expect(h.events.slice(-2)).toEqual(["end A=2", "start A=3"]);
    await h.answerAll();
    await w.flush();
    expect(h.puts.map((p) => p.rows.map((r) => `${r.key}:${r.hash}`).join())).toEqual([
      "A:h1",
      "A:h2",
      "B:h1",
      "A:h3",
    ]);
  });

  it("after a failed batch no batch starts; those in flight land and are recorded; add and flush rethrow the first failure", async () => {
    const h = harness();
    const w = writer(h, 1, { inFlight: 2, waiting: 2 });
    for (const sku of ["A", "B", "C", "D"]) await w.add(write(sku, 1));
    await tick();
    expect(h.sent).toHaveLength(2);
    // The very error is rethrown (compared by identity: a rejection with nothing would pass `toThrow`).
    const first = new Error("ilk hata");
    h.sent[0]!.answer({ throws: first });
    await tick();
    // B is in flight still; C and D wait for a slot and are never sent.
    expect(h.sent).toHaveLength(2);
    await expect(w.add(write("E", 1))).rejects.toBe(first);
    h.sent[1]!.answer({ throws: new Error("ikinci hata") });
    await expect(w.flush()).rejects.toBe(first);
    expect(h.sent).toHaveLength(2);
    expect(h.puts).toEqual([]);

    const landing = harness();
    const l = writer(landing, 1, { inFlight: 2, waiting: 0 });
    await l.add(write("A", 1));
    await l.add(write("B", 1));
    await tick();
    landing.sent[1]!.answer({ throws: new Error("hata") });
    await tick();
    landing.sent[0]!.answer();
    await expect(l.flush()).rejects.toThrow("hata");
    expect(landing.puts).toEqual([{ entity: "stock", rows: [{ key: "A", hash: "h1" }] }]);
    expect(landing.ctx.tally.counts.written).toBe(1);
  });

  it("keeps nothing per record once its batches are answered (memory stays bounded in a 100,000-SKU run)", async () => {
    const h = harness();
    const w = writer(h, 2, { inFlight: 2 });
    for (const sku of ["A", "B", "A", "C", "D", "A"]) await w.add(write(sku, 1));
    await h.answerAll();
    await w.flush();
    expect(h.sent).toHaveLength(3);
    // Which batch carries a record is private state; its size is the memory a run keeps between batches.
    expect((w as unknown as { carrying: Map<string, unknown> }).carrying.size).toBe(0);
  });
});
