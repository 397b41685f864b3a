/**
 * Lower bounds of a sync's wall time under the two systems' rate limits. Both systems count requests
 * in a sliding window on arrival: `requests` per `windowMs`, a burst of `requests` at once included.
 */
export type WindowLimit = { requests: number; windowMs: number };

/**
 * The earliest time (ms) each call can go when call i may not go before `ready[i]` and the window
 * holds `requests` calls: call i waits for call i − requests to leave the window.
 */
export function earliestCalls(ready: number[], limit: WindowLimit): number[] {
  const at: number[] = [];
  for (let i = 0; i < ready.length; i++) {
    const windowFree = i >= limit.requests ? (at[i - limit.requests] as number) + limit.windowMs : 0;
    at.push(Math.max(ready[i] as number, windowFree));
  }
  return at;
}

/**
 * The least time `calls` requests take under a sliding window, all ready at once: the first
 * `requests` go together and each later one waits for a place, so the last leaves at
 * floor((calls − 1) / requests) windows. E.g. 134 calls at 50 / 10 s: 20.0 s (not 134 ÷ 5/s = 26.8 s).
 */
export function leastTime(calls: number, limit: WindowLimit): number {
  if (calls <= 0) return 0;
  return (Math.floor((calls - 1) / limit.requests) * limit.windowMs) / 1000;
}

/** One flow of a sync: the ERP reads it needs and the shop write calls those reads feed. */
export type FlowCalls = { reads: number; writes: number };

/**
 * The least time (s) of a sync whose shop writes need data read from the ERP first. A write cannot
 * go before the records it carries were read, and the ERP's reads are paced by its own window, so the
 * shop's burst cannot be used at t = 0 for more batches than have been read by then.
 *
 * Every assumption favours the sync, so no engine can beat it:
 * - the ERP reads go at its limit from t = 0, answered after `erpAnswerMs`, and all of them carry data;
 * - the reads that feed the most write calls per read go first;
 * - a write call goes the moment its records are read (no compare, no database), answered after
 *   `shopAnswerMs`; records come evenly over a flow's reads (fractions of a batch count).
 */
export function jointLeastTime(
  flows: FlowCalls[],
  erp: WindowLimit,
  shop: WindowLimit,
  latency: { erpAnswerMs: number; shopAnswerMs: number } = { erpAnswerMs: 0, shopAnswerMs: 0 },
): number {
  const reads = flows.reduce((n, f) => n + f.reads, 0);
  const writes = flows.reduce((n, f) => n + f.writes, 0);
  if (writes === 0) return 0;
  const readAnswered = earliestCalls(new Array<number>(reads).fill(0), erp).map(
    (t) => t + latency.erpAnswerMs,
  );
  // Write calls per read, best first: the cumulative records read grow as fast as they can.
  const yields = flows
    .filter((f) => f.reads > 0)
    .flatMap((f) => new Array<number>(f.reads).fill(f.writes / f.reads))
    .sort((a, b) => b - a);
  const ready: number[] = [];
  let fed = 0;
  for (let j = 0; j < yields.length && ready.length < writes; j++) {
    fed += yields[j] as number;
    // Write k (1-based) is ready once the reads so far carry k batches (a hair of float slack).
    while (ready.length < writes && ready.length + 1 <= fed + 1e-9) ready.push(readAnswered[j] as number);
  }
  // Writes of a flow without reads (none in practice) are ready at once.
  while (ready.length < writes) ready.push(0);
  ready.sort((a, b) => a - b);
  const sent = earliestCalls(ready, shop);
  return ((sent[sent.length - 1] as number) + latency.shopAnswerMs) / 1000;
}
