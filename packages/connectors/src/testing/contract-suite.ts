/**
 * What every connector's contract test repeated around its own tests: the conformance report its
 * emulators' recorders feed, the verdict line and assertion it ends with, the version pin, and the
 * check that a catalogue-only ERP refuses order writes without sending anything. Uses vitest, so it is
 * for test files only (not exported from the package).
 */

import { describe, expect, it } from "vitest";
import type { ErpConnector } from "../sdk/connector";
import type { ApiVersionPin } from "../sdk/version-pin";
import { caught } from "./contract";
import {
  addToReport,
  type ConformanceReport,
  describeFailures,
  judgeRequests,
  type RecordedRequest,
  type RequestJudge,
} from "./recorder";
import { expectPinnedVersionSupported } from "./version-pin";

/** The conformance report of a suite: judges what its emulators recorded, test by test or at the end. */
export class ConformanceTally {
  readonly report: ConformanceReport = { requests: 0, operations: {}, failures: [] };

  constructor(private readonly judge: RequestJudge) {}

  /** Judges what the recorder holds and clears it (after each test, or before an emulator closes). */
  take(recorder: { list(): RecordedRequest[]; clear(): void }): void {
    addToReport(this.report, judgeRequests(recorder.list(), this.judge));
    recorder.clear();
  }
}

/**
 * The suite's verdict: prints how many requests were judged per operation and fails when any was
 * rejected, or when fewer requests or operations than the suite's own calls make were judged.
 */
export function expectConformance(
  system: string,
  report: ConformanceReport,
  least: { requests?: number; operations?: number } = {},
): void {
  const operations = Object.entries(report.operations);
  const ops = operations.map(([op, s]) => `${op} ${s.requests}/${s.failed}`).join(", ");
  console.log(
    `${system} conformance: ${report.requests} requests, ${operations.length} operations, ${report.failures.length} rejected (${ops})`,
  );
  expect(report.failures, describeFailures(report)).toEqual([]);
  expect(report.requests).toBeGreaterThanOrEqual(least.requests ?? 1);
  expect(operations.length).toBeGreaterThanOrEqual(least.operations ?? 1);
}

/** The version-pin test (issue 32) every contract suite ends with. */
export function describeVersionPin(title: string, pin: ApiVersionPin): void {
  describe(title, () => {
    it("speaks a supported API version", () => expectPinnedVersionSupported(pin));
  });
}

/**
 * An ERP that is only a catalogue source: every order, customer and invoice call fails as
 * "unsupported" with a Turkish sentence naming the system, and the emulator receives nothing.
 */
export async function expectOrderWritesRefused(
  conn: ErpConnector,
  requestsSent: () => number,
  systemName: string,
): Promise<void> {
  const before = requestsSent();
  for (const p of [
    conn.createSalesOrder({ order: {} as never, customerCode: "x" }),
    conn.createCustomer({} as never),
    conn.findOrderByRef("WEB-1"),
    conn.listInvoicesForOrder("WEB-1"),
  ]) {
    const e = await caught(p);
    expect(e.reason).toBe("unsupported");
    expect(e.merchantMessage).toContain(systemName);
  }
  expect(requestsSent()).toBe(before);
}
