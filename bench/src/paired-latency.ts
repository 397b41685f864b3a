import { loadavg } from "node:os";

/**
 * Direct against relayed calls in one run (the on-site agent benches): latency with the two kinds
 * alternating one at a time, so both see the same machine load, and calls per second with several in
 * flight.
 */
export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

/** Milliseconds one call takes. */
export async function timed(call: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await call();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Each side's p50/p99 and the median of the pairwise differences, after 200 warm-up pairs. */
export async function latencies(
  direct: () => Promise<unknown>,
  relayed: () => Promise<unknown>,
  calls: number,
) {
  for (let i = 0; i < 200; i++) {
    await direct(); // warm up: JIT, keep-alive sockets, pools
    await relayed();
  }
  const a: number[] = [];
  const b: number[] = [];
  const diff: number[] = [];
  for (let i = 0; i < calls; i++) {
    const d = await timed(direct);
    const r = await timed(relayed);
    a.push(d);
    b.push(r);
    diff.push(r - d);
  }
  for (const list of [a, b, diff]) list.sort((x, y) => x - y);
  return {
    direct: { p50: percentile(a, 50), p99: percentile(a, 99) },
    relayed: { p50: percentile(b, 50), p99: percentile(b, 99) },
    pairedMedian: percentile(diff, 50),
  };
}

/** Calls per second with `concurrency` calls in flight until `calls` are done. */
export async function throughput(
  call: () => Promise<unknown>,
  calls: number,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < calls) await call();
    }),
  );
  return calls / (Number(process.hrtime.bigint() - started) / 1e9);
}

type Latencies = Awaited<ReturnType<typeof latencies>>;

/**
 * Prints the direct/relayed table (calls/s, p50, p99) under `title` and the latency the relay adds,
 * with `extra` facts and the load average; answers the added p50 in ms.
 */
export function reportPaired(
  title: string,
  rates: { direct: number; relayed: number },
  lat: Latencies,
  extra = "",
): number {
  const row = (name: string, rate: number, m: { p50: number; p99: number }) =>
    `${name.padEnd(14)} ${rate.toFixed(0).padStart(8)} ${m.p50.toFixed(2).padStart(8)} ${m.p99.toFixed(2).padStart(8)}`;
  console.log(title);
  console.log(`${"".padEnd(14)} ${"calls/s".padStart(8)} ${"p50 ms".padStart(8)} ${"p99 ms".padStart(8)}`);
  console.log(row("direct", rates.direct, lat.direct));
  console.log(row("through agent", rates.relayed, lat.relayed));
  const added50 = lat.relayed.p50 - lat.direct.p50;
  const added99 = lat.relayed.p99 - lat.direct.p99;
  console.log(
    `added latency: p50 ${added50.toFixed(2)} ms, p99 ${added99.toFixed(2)} ms, ` +
      `median of paired differences ${lat.pairedMedian.toFixed(2)} ms (goal: p50 ≤ 5 ms); ` +
      `${extra}load average ${loadavg()[0]!.toFixed(1)}`,
  );
  return added50;
}
