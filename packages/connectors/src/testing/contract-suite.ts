/**
 * What every connector's contract test repeated around its own tests: the conformance report its
 * emulators' recorders feed, the verdict line and assertion it ends with, the version pin, and the
 * check that a catalogue-only ERP refuses order writes without sending anything. Uses vitest, so it is
 * for test files only (not exported from the package).
 */

import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ConnectorContext, ErpConnector, ShopConnector } from "../sdk/connector";
import type { HttpLogEntry } from "../sdk/logging";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import type { ApiVersionPin } from "../sdk/version-pin";
import { caught, testContext } from "./contract";
import {
  addToReport,
  type ConformanceReport,
  describeFailures,
  judgeRequests,
  type RecordedRequest,
  type RequestJudge,
} from "./recorder";
import { judgeWithRules, type RuntimeRule, rulesMissingFrom, unsourcedRules } from "./runtime-rules";
import type { SandboxEntry, SandboxInstance } from "./sandbox";
import { expectPinnedVersionSupported } from "./version-pin";

/** The conformance report of a suite: judges what its emulators recorded, test by test or at the end. */
export class ConformanceTally {
  readonly report: ConformanceReport = { requests: 0, operations: {}, failures: [] };

  /** `rules`: the connector's runtime rules, applied beside the judge to each batch taken. */
  constructor(
    private readonly judge: RequestJudge,
    private readonly rules?: readonly RuntimeRule<RecordedRequest>[],
  ) {}

  /** Judges what the recorder holds and clears it (after each test, or before an emulator closes). */
  take(recorder: { list(): RecordedRequest[]; clear(): void }): void {
    const list = recorder.list();
    addToReport(
      this.report,
      this.rules ? judgeWithRules(list, this.judge, this.rules) : judgeRequests(list, this.judge),
    );
    recorder.clear();
  }

  /**
   * After each test: the emulator's injected faults cleared, nothing dropped by its recorder, and what it
   * recorded judged.
   */
  takeAfterEach(emulator: () => TestedEmulator): void {
    afterEach(() => {
      const emu = emulator();
      emu.faults.clear();
      expect(emu.recorder.dropped).toBe(0);
      this.take(emu.recorder);
    });
  }
}

/** What `takeAfterEach` needs of an emulator. */
interface TestedEmulator {
  faults: { clear(): void };
  recorder: { list(): RecordedRequest[]; clear(): void; dropped: number };
}

/** An emulator a suite starts: what it recorded is kept for the verdict when it closes. */
interface RecordingEmulator {
  recorder: { list(): RecordedRequest[] };
  close(): Promise<void>;
}

/**
 * Closes the suite's emulator after all its tests, first keeping what it recorded in `judged` (when
 * given) so the final verdict still judges those requests.
 */
export function closeAfterAll(
  emulator: () => RecordingEmulator | undefined,
  judged?: RecordedRequest[],
): void {
  afterAll(async () => {
    const emu = emulator();
    if (!emu) return;
    judged?.push(...emu.recorder.list());
    await emu.close();
  });
}

/**
 * The suite's verdict: prints how many requests were judged per operation and fails when any was
 * rejected, or when fewer requests or operations than the suite's own calls make were judged. `note`
 * adds to the printed line (e.g. how many requests the emulator's runtime rules refused).
 */
export function expectConformance(
  system: string,
  report: ConformanceReport,
  least: { requests?: number; operations?: number; note?: string } = {},
): void {
  const operations = Object.entries(report.operations);
  const ops = operations.map(([op, s]) => `${op} ${s.requests}/${s.failed}`).join(", ");
  const note = least.note ? `, ${least.note}` : "";
  console.log(
    `${system} conformance: ${report.requests} requests, ${operations.length} operations, ${report.failures.length} rejected${note} (${ops})`,
  );
  expect(report.failures, describeFailures(report)).toEqual([]);
  expect(report.requests).toBeGreaterThanOrEqual(least.requests ?? 1);
  expect(operations.length).toBeGreaterThanOrEqual(least.operations ?? 1);
}

/** A contract suite's emulator and connector, started once before its tests (see `contractSuite`). */
export interface ContractSuite<E, C> {
  readonly emu: E;
  /** The connector the suite's tests share, built on `ctx()`. */
  readonly conn: C;
  /** Every HTTP log line the suite's connectors wrote (secrets must not appear in them). */
  readonly logs: HttpLogEntry[];
  /** The rate-limit store every `ctx()` shares. */
  readonly store: InMemoryRateLimitStore;
  /** A test context with the suite's defaults, then `over`. */
  ctx(over?: Partial<ConnectorContext>): ConnectorContext;
  /** What the judge made of the requests recorded so far (`expectConformance` reads it at the end). */
  readonly conformance: ConformanceTally;
  /**
   * Without a `judge`: requests kept for the suite's own verdict (other emulators' included), the
   * suite's emulator's added when it closes.
   */
  readonly judged: RecordedRequest[];
}

/**
 * The start-up every emulator-backed contract suite repeated: the emulator started before the tests and
 * closed after them, one connector on a shared context, and what the emulator recorded judged after
 * each test (injected faults cleared, nothing dropped).
 */
export function contractSuite<E extends TestedEmulator & RecordingEmulator, C>(options: {
  start: () => Promise<E>;
  connect: (emu: E, ctx: ConnectorContext) => C;
  /** Judges what the emulator recorded after each test; without it the suite judges `judged` itself. */
  judge?: RequestJudge;
  /** The connector's runtime rules, applied beside the judge. */
  rules?: readonly RuntimeRule<RecordedRequest>[];
  /** What every `ctx()` of the suite sets besides `testContext`'s defaults. */
  context?: Partial<ConnectorContext>;
}): ContractSuite<E, C> {
  let emu: E | undefined;
  let conn: C | undefined;
  const logs: HttpLogEntry[] = [];
  const store = new InMemoryRateLimitStore();
  const ctx = (over: Partial<ConnectorContext> = {}) =>
    testContext(store, logs, { ...options.context, ...over });
  const conformance = new ConformanceTally(options.judge ?? (() => undefined), options.rules);
  const judged: RecordedRequest[] = [];
  const started = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("the suite's emulator is not started yet (use it inside a test)");
    return v;
  };
  beforeAll(async () => {
    emu = await options.start();
    conn = options.connect(emu, ctx());
  });
  closeAfterAll(() => emu, options.judge ? undefined : judged);
  if (options.judge) conformance.takeAfterEach(() => started(emu));
  return {
    get emu() {
      return started(emu);
    },
    get conn() {
      return started(conn);
    },
    logs,
    store,
    ctx,
    conformance,
    judged,
  };
}

/**
 * The marketplaces' suite frame: what the emulator recorded judged after each test; at the end the
 * emulator closed, `atEnd` run, and the verdict given (at least `operations`), with its rules' refusals.
 */
export function judgeMarketplaceSuite<
  E extends TestedEmulator & RecordingEmulator & { rules: { refused: number } },
>(
  system: string,
  tally: ConformanceTally,
  emulator: () => E,
  operations: number,
  atEnd?: (emu: E) => void,
): void {
  tally.takeAfterEach(emulator);
  afterAll(async () => {
    const emu = emulator();
    await emu.close();
    atEnd?.(emu);
    expectConformance(system, tally.report, {
      operations,
      note: `${emu.rules.refused} refused by the emulator's rules`,
    });
  });
}

/** The version-pin test (issue 32) every contract suite ends with. */
export function describeVersionPin(title: string, pin: ApiVersionPin): void {
  describe(title, () => {
    it("speaks a supported API version", () => expectPinnedVersionSupported(pin));
  });
}

/** Each call fails as "unsupported" with a Turkish sentence matching `says`, and nothing is sent. */
async function expectRefusedUnsent(
  calls: (() => Promise<unknown>)[],
  requestsSent: () => number,
  says: RegExp | string,
): Promise<void> {
  const before = requestsSent();
  for (const call of calls) {
    const e = await caught(call());
    expect(e.reason).toBe("unsupported");
    expect(e.merchantMessage).toMatch(says);
  }
  expect(requestsSent()).toBe(before);
}

/** The calls a catalogue-only ERP refuses: orders, customers and invoices. */
const orderCalls = (conn: ErpConnector) => [
  () => conn.createSalesOrder({ order: {} as never, customerCode: "x" }),
  () => conn.createCustomer({} as never),
  () => conn.findOrderByRef("WEB-1"),
  () => conn.listInvoicesForOrder("WEB-1"),
];

/** The calls a read-only shop refuses: stock, prices and order status. */
const shopWriteCalls = (shop: ShopConnector) => [
  () => shop.setStock([{ sku: "STK-000001", locationId: "1", qty: 1 }]),
  () => shop.setPrices([{ sku: "STK-000001", amount: 1, currency: "TRY" }]),
  () => shop.updateOrderStatus("1", { status: "2" }),
];

/**
 * An ERP that is only a catalogue source: every order, customer and invoice call fails as
 * "unsupported" with a Turkish sentence naming the system, and the emulator receives nothing.
 */
export const expectOrderWritesRefused = (conn: ErpConnector, sent: () => number, systemName: string) =>
  expectRefusedUnsent(orderCalls(conn), sent, systemName);

/** A shop that only reads: its writes fail as "unsupported" (Turkish, matching `says`), nothing is sent. */
export const expectShopWritesRefused = (shop: ShopConnector, sent: () => number, says: RegExp) =>
  expectRefusedUnsent(shopWriteCalls(shop), sent, says);

/** What `expectRetriedThroughFaults` needs of an emulator: its faults and the counts of those it injected. */
interface FaultingEmulator {
  faults: { set(config: { retryAfterSeconds?: number; hangMs?: number; queue?: { kind: string }[] }): void };
  counters: { faults: Record<string, number | undefined> };
}

/**
 * The fault test every HTTP connector's suite has: a 429 with Retry-After, then a 5xx, then a hang past
 * the timeout, each answered once and retried; `read` still returns what the emulator holds.
 */
export async function expectRetriedThroughFaults<T>(
  emu: FaultingEmulator,
  read: () => Promise<T>,
  expected: (result: T) => void,
): Promise<void> {
  emu.faults.set({
    retryAfterSeconds: 1,
    hangMs: 1_000,
    queue: [{ kind: "429" }, { kind: "5xx" }, { kind: "timeout" }],
  });
  expected(await read());
  for (const kind of ["429", "5xx", "timeout"]) expect(emu.counters.faults[kind], kind).toBe(1);
}

/** VERIFIED.md (at `verified`) names every one of `rules`, and every rule says where it comes from. */
export function expectRulesDocumented<S>(verified: URL, rules: readonly RuntimeRule<S>[]): void {
  const md = readFileSync(verified, "utf8");
  expect(rulesMissingFrom(md, rules)).toEqual([]);
  expect(unsourcedRules(rules)).toEqual([]);
}

/** The rules test every marketplace suite has, as its own block. */
export function describeRulesDocumented<S>(
  title: string,
  verified: URL,
  rules: readonly RuntimeRule<S>[],
): void {
  describe(title, () => {
    it("VERIFIED.md names every rule and every rule has a source", () =>
      expectRulesDocumented(verified, rules));
  });
}

/**
 * A sales channel's sandbox as the registry starts it (tenant t1, seed 3, the standard profile), handed
 * to `probe` with its credentials and closed after.
 */
export async function withChannelSandbox(
  entry: SandboxEntry | undefined,
  probe: (app: SandboxInstance["app"], credentials: Record<string, string>) => Promise<void>,
): Promise<void> {
  expect(entry).toBeDefined();
  const baseUrl = `http://127.0.0.1:1/sandbox/${entry?.system}/t1`;
  const credentials = entry?.credentials(baseUrl, (n) => `${n}-0123456789abcdef`) ?? {};
  const sandbox = await entry?.start({ seed: 3, baseUrl, credentials, profile: "standard" });
  try {
    expect(sandbox).toBeDefined();
    if (sandbox) await probe(sandbox.app, credentials);
  } finally {
    await sandbox?.close();
  }
}

/** What a marketplace answers a product listing with (they are made in the seller's panel): the error. */
export const refusedListing = (shop: ShopConnector) =>
  caught(
    shop.createProduct({
      product: {
        sku: "X",
        name: "X",
        categoryPath: [],
        vatRate: 20,
        unit: "Adet",
        variants: [],
        images: [],
        isActive: true,
      },
    }),
  );

/** What a marketplace without an invoice-link call answers `attachInvoice` with: the error. */
export const refusedInvoiceLink = (shop: ShopConnector, orderRef: string) =>
  caught(
    shop.attachInvoice(orderRef, {
      invoice: {
        orderRef,
        number: "EPA2026000000001",
        uuid: "u",
        date: "2026-11-28",
        currency: "TRY",
        lines: [],
        totals: { net: 0, tax: 0, gross: 0 },
      },
    }),
  );
