/**
 * Request recording for conformance: the emulator keeps every request a connector sent during its
 * contract tests, and a judge derived from a vendor artifact checks each one afterwards. A request the
 * judge rejects fails the suite, however well the emulator coped with it.
 */

export interface RecordedRequest {
  at: number;
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A request as the recorder keeps it, from what an emulator's handler sees (Fastify's request). */
export function recordedFrom(
  req: { method: string; url: string; query: unknown; headers: unknown; body: unknown },
  at: number,
): RecordedRequest {
  return {
    at,
    method: req.method,
    path: req.url.split("?")[0] ?? req.url,
    query: req.query as Record<string, unknown>,
    headers: req.headers as RecordedRequest["headers"],
    body: req.body,
  };
}

/** A judge's verdict on one request: the operation it recognised and what is wrong (empty = conforms). */
export interface Verdict {
  operation: string;
  problems: string[];
}

/** Judges one request; `undefined` when the judge does not know the request at all (that is a mismatch too). */
export type RequestJudge = (r: RecordedRequest) => Verdict | undefined;

export interface ConformanceReport {
  /** Requests judged. */
  requests: number;
  /** Distinct operations seen, each with how many requests and how many failed. */
  operations: Record<string, { requests: number; failed: number }>;
  /** Every failing request, with the judge's words. */
  failures: Array<{ operation: string; method: string; path: string; problems: string[] }>;
}

export class RequestRecorder {
  private log: RecordedRequest[] = [];
  private enabled = true;
  /** Requests pushed out by the cap (a conformance test asserts 0, or raises the cap). */
  dropped = 0;

  /** Keeps the newest `max` requests so a long-running emulator (demo, benchmarks) stays bounded. */
  constructor(readonly max = 2_000) {}

  record(r: RecordedRequest): void {
    if (!this.enabled) return;
    this.log.push(r);
    if (this.log.length > this.max) {
      this.log.shift();
      this.dropped++;
    }
  }

  /** Recorded requests, oldest first (a copy). */
  list(): RecordedRequest[] {
    return [...this.log];
  }

  get size(): number {
    return this.log.length;
  }

  clear(): void {
    this.log = [];
    this.dropped = 0;
  }

  /** Long runs (demo, benchmarks) switch recording off so memory stays flat. */
  pause(): void {
    this.enabled = false;
  }

  resume(): void {
    this.enabled = true;
  }
}

/** Run the judge over recorded requests. */
export function judgeRequests(requests: RecordedRequest[], judge: RequestJudge): ConformanceReport {
  const report: ConformanceReport = { requests: 0, operations: {}, failures: [] };
  for (const r of requests) {
    report.requests++;
    const v = judge(r) ?? { operation: `${r.method} ${r.path}`, problems: ["unknown to the judge"] };
    const op = report.operations[v.operation] ?? { requests: 0, failed: 0 };
    report.operations[v.operation] = op;
    op.requests++;
    if (v.problems.length > 0) {
      op.failed++;
      report.failures.push({ operation: v.operation, method: r.method, path: r.path, problems: v.problems });
    }
  }
  return report;
}

/** Adds one report (a test's judged requests) to a running one (the file's). */
export function addToReport(total: ConformanceReport, r: ConformanceReport): void {
  total.requests += r.requests;
  total.failures.push(...r.failures);
  for (const [op, v] of Object.entries(r.operations)) {
    const t = total.operations[op] ?? { requests: 0, failed: 0 };
    t.requests += v.requests;
    t.failed += v.failed;
    total.operations[op] = t;
  }
}

/** One line per failing operation, for an assertion message. */
export function describeFailures(report: ConformanceReport): string {
  const seen = new Map<string, string>();
  for (const f of report.failures) {
    if (!seen.has(f.operation))
      seen.set(f.operation, `${f.operation} (${f.method} ${f.path}): ${f.problems.join("; ")}`);
  }
  return [...seen.values()].join("\n");
}
