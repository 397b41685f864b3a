/**
 * The connection check (issue 36): one page of every read the company's enabled jobs need, each answer
 * judged (the model's field rules of ./check-answers.ts plus the connector's own answer rules). It never
 * writes, keeps the system's rate limiter (the connector's own), and on a metered system it says its call
 * count beforehand and refuses to send a call past it.
 */

import type { JobType, MessageKey } from "@ep/contracts";
import { applyRuntimeRules, type RuntimeRule } from "../testing/runtime-rules";
import { type AnswerModel, type FieldDifference, judgeItems, redactedShape } from "./check-answers";
import type { ConnectorDescriptor, ConnectorKind, ErpConnector, ShopConnector } from "./connector";
import { ConnectorError, type FailureReason } from "./errors";
import type { TransportFetch } from "./http";

export type CheckOperation =
  | "products"
  | "stock"
  | "prices"
  | "priceGroups"
  | "categories"
  | "stockLocations"
  | "orders"
  | "orderStatuses"
  | "priceLists"
  | "shopStockLocations"
  | "shopCategories";

/** Items the check asks a paged read for, unless the connector's check data says otherwise. */
const CHECK_PAGE_SIZE = 20;

/**
 * One page of a read: its items, and how many records the connector could not read (`Page.rejected`).
 * `pageSize` is the connector's check data's when it sets one (orders are otherwise asked as a job asks).
 */
type Read = (
  c: ErpConnector & ShopConnector,
  pageSize: number | undefined,
) => Promise<{ items: unknown[]; rejected?: number } | unknown[]>;

interface OperationDef {
  side: ConnectorKind;
  model: AnswerModel;
  /** The jobs that read it: the check runs it when one of them is enabled. */
  jobs: JobType[];
  read: Read;
}

const page = <T>(p: Promise<{ items: T[]; rejected?: unknown[] }>) =>
  p.then((r) => ({ items: r.items as unknown[], rejected: r.rejected?.length ?? 0 }));

/** Every read a job makes, in the order the check runs them (the product page first: it is every job's source). */
export const CHECK_OPERATIONS: Record<CheckOperation, OperationDef> = {
  products: {
    side: "erp",
    model: "product",
    jobs: ["ProductIntegration", "ProductUpdate", "PriceIntegration"],
    read: (c, n) => page(c.listProducts({ pageSize: n ?? CHECK_PAGE_SIZE })),
  },
  categories: {
    side: "erp",
    model: "category",
    jobs: ["CategoryIntegration"],
    read: (c, n) => page(c.listCategories({ pageSize: n ?? CHECK_PAGE_SIZE })),
  },
  stockLocations: {
    side: "erp",
    model: "option",
    jobs: ["StockIntegration"],
    read: (c) => c.listStockLocations(),
  },
  stock: {
    side: "erp",
    model: "stock",
    jobs: ["StockIntegration"],
    read: (c, n) => page(c.listStock({ pageSize: n ?? CHECK_PAGE_SIZE })),
  },
  priceGroups: {
    side: "erp",
    model: "option",
    jobs: ["PriceIntegration"],
    read: (c) => c.listPriceGroups(),
  },
  prices: {
    side: "erp",
    model: "price",
    jobs: ["PriceIntegration"],
    read: (c, n) => page(c.listPrices({ pageSize: n ?? CHECK_PAGE_SIZE })),
  },
  shopCategories: {
    side: "shop",
    model: "category",
    jobs: ["CategoryIntegration", "ProductIntegration"],
    read: (c) => (c as ShopConnector).listCategories(),
  },
  shopStockLocations: {
    side: "shop",
    model: "option",
    jobs: ["StockIntegration"],
    read: (c) => c.listStockLocations(),
  },
  priceLists: {
    side: "shop",
    model: "option",
    jobs: ["PriceIntegration"],
    read: (c) => c.listPriceLists(),
  },
  orderStatuses: {
    side: "shop",
    model: "option",
    jobs: ["OrderIntegration"],
    read: (c) => c.listOrderStatuses(),
  },
  orders: {
    side: "shop",
    model: "order",
    jobs: ["OrderIntegration", "InvoiceIntegration"],
    read: (c, n) => page(c.listOrders(n ? { pageSize: n } : {})),
  },
};

/** One HTTP exchange the check saw: what the connector's answer rules judge. */
export interface CheckAnswer {
  method: string;
  path: string;
  status: number;
  body: unknown;
  /** The request's JSON body, when it had one. */
  request?: unknown;
}

/**
 * What is specific to one connector (its `check.ts`): the calls each read costs (the plan a metered
 * system is held to), the calls before the first read (a login), reads it does not make, and answer
 * rules over its raw answers (from its judge's shapes).
 */
export interface ConnectorCheckSpec {
  system: string;
  /** Calls sent before the first read (login, session); counted once. Default 0. */
  setupCalls?: number;
  /** The sign-in calls when they depend on the login (a branch chosen in the form or asked for). */
  setupCallsFor?: (credentials: Record<string, string>) => number;
  /** Calls one page of a read costs, when not 1 (a lookup beside it, one call per item, per depot). */
  calls?: Partial<Record<CheckOperation, number>>;
  /**
   * Calls several reads share (a list the connector reads once and keeps, a token fetched on first
   * use): paid by whichever of them the check runs first, so a check of fewer reads says fewer.
   */
  shared?: Array<{ reads: CheckOperation[]; calls: number }>;
  /** Items asked per read where a page costs a call per item (Sopyo's order details, Koza's price lists). */
  pageSizes?: Partial<Record<CheckOperation, number>>;
  /**
   * Reads whose last call depends on the page itself (D365: the variants of an on-hand page that names
   * some): the plan counts the most, so the check may send fewer than it said, never more.
   */
  atMost?: CheckOperation[];
  /** Reads this connector answers from memory or not at all (they cost nothing and are still judged). */
  free?: CheckOperation[];
  /** Rules over each raw answer of a read (ids name the VERIFIED.md entry they stand for). */
  answerRules?: RuntimeRule<CheckAnswer>[];
  /** Per answer rule id: the merchant's description of it (the id itself stays for support). */
  ruleTexts?: Record<string, MessageKey>;
  /** Where the VERIFIED.md entry of the connector is, for the console's link. */
  verified?: string;
}

export type OperationStatus = "ok" | "drift" | "untried";

export interface CheckDifference {
  /** `model.product.sku` or the connector's rule id. */
  rule: string;
  /** Model field (or raw path) that differs. */
  field: string;
  expect?: string;
  got?: string;
  /** English, for the log and support: never a merchant value. */
  detail: string;
  /** The answer's shape with values replaced by their kinds. */
  sample: unknown;
}

export interface OperationResult {
  operation: CheckOperation;
  side: ConnectorKind;
  status: OperationStatus;
  /** The enabled jobs that read it. */
  jobs: JobType[];
  differences: CheckDifference[];
  /** Why it was not tried (a failure reason, or "budget"). */
  untriedReason?: FailureReason | "budget";
  /** The connector's own Turkish explanation when it gave one. */
  untriedMessage?: string;
  items: number;
  calls: number;
}

export interface CheckReport {
  system: string;
  side: ConnectorKind;
  /** Calls the check said it would send at most (metered systems are held to it). */
  plannedCalls: number;
  calls: number;
  operations: OperationResult[];
}

/** The reads one side makes for the enabled jobs, in check order. */
export function operationsFor(side: ConnectorKind, jobs: readonly JobType[]): CheckOperation[] {
  return (Object.keys(CHECK_OPERATIONS) as CheckOperation[]).filter((op) => {
    const def = CHECK_OPERATIONS[op];
    return def.side === side && def.jobs.some((j) => jobs.includes(j));
  });
}

/**
 * The calls a check of these reads sends, said before it starts: what each read costs, the calls reads
 * share, and the sign-in before the first call. Every sandbox system sends exactly this many.
 */
export function plannedCalls(spec: ConnectorCheckSpec | undefined, ops: readonly CheckOperation[]): number {
  let n = 0;
  for (const op of ops) if (!spec?.free?.includes(op)) n += spec?.calls?.[op] ?? 1;
  for (const share of spec?.shared ?? []) if (share.reads.some((r) => ops.includes(r))) n += share.calls;
  return n > 0 ? n + (spec?.setupCalls ?? 0) : 0;
}

function parseJson(v: unknown): unknown {
  if (typeof v !== "string") return undefined;
  try {
    return JSON.parse(v);
  } catch {
    return undefined;
  }
}

export class CheckBudgetExceeded extends ConnectorError {
  constructor(system: string, planned: number) {
    super(`${system}: connection check would exceed its ${planned} planned calls`, {
      reason: "config",
      system,
      systemCode: "CHECK_BUDGET",
    });
  }
}

/**
 * A transport that records every answer (for the connector's answer rules) and, when `limit` is set,
 * refuses to send a call past it: the check's word on a metered system.
 */
export class CheckRecorder {
  readonly answers: CheckAnswer[] = [];
  readonly fetch: TransportFetch;
  calls = 0;

  constructor(
    private readonly inner: TransportFetch,
    private readonly system: string,
    private readonly limit?: number,
  ) {
    this.fetch = Object.assign(
      async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
        if (this.limit !== undefined && this.calls >= this.limit)
          throw new CheckBudgetExceeded(this.system, this.limit);
        this.calls++;
        const res = await this.inner(input, init);
        const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
        const text = await res
          .clone()
          .text()
          .catch(() => "");
        // Not JSON (XML, SOAP): kept as text for rules that read it.
        const body = parseJson(text) ?? text;
        this.answers.push({
          method: init?.method ?? "GET",
          path: url.pathname,
          status: res.status,
          body,
          request: parseJson(init?.body),
        });
        return res;
      },
      { ready: inner.ready?.bind(inner) },
    );
  }
}

function biggest(answers: readonly CheckAnswer[]): CheckAnswer | undefined {
  const size = (a: CheckAnswer) => (typeof a.body === "string" ? 0 : JSON.stringify(a.body).length);
  return answers.reduce<CheckAnswer | undefined>(
    (best, a) => (!best || size(a) > size(best) ? a : best),
    undefined,
  );
}

/** The refusal of a call past the plan, however the connector's client wrapped it. */
function budgetRefused(error: unknown): boolean {
  for (let e = error; e instanceof Error; e = e.cause) if (e instanceof CheckBudgetExceeded) return true;
  return false;
}

export interface RunCheckInput {
  connector: ErpConnector | ShopConnector;
  descriptor: ConnectorDescriptor;
  operations: readonly CheckOperation[];
  jobs: readonly JobType[];
  spec?: ConnectorCheckSpec;
  /** The recorder the connector's transport goes through (absent for SQL-only connectors). */
  recorder?: CheckRecorder;
  /** Calls outside the recorder (SQL through the agent), read before and after each operation. */
  sqlCalls?: () => number;
}

function differenceOf(d: FieldDifference, sample: unknown): CheckDifference {
  return {
    rule: d.rule,
    field: d.field,
    expect: d.expect,
    got: d.got,
    detail: `${d.field}: expected ${d.expect}, got ${d.got}`,
    sample,
  };
}

/** Runs the check's reads one after another; never throws for a read's failure (it becomes "untried"). */
export async function runConnectionCheck(input: RunCheckInput): Promise<CheckReport> {
  const { connector, descriptor, spec, recorder } = input;
  const results: OperationResult[] = [];
  const callsNow = () => (recorder?.calls ?? 0) + (input.sqlCalls?.() ?? 0);
  for (const operation of input.operations) {
    const def = CHECK_OPERATIONS[operation];
    const jobs = def.jobs.filter((j) => input.jobs.includes(j));
    const before = callsNow();
    const seen = recorder?.answers.length ?? 0;
    const base = { operation, side: def.side, jobs, differences: [] as CheckDifference[], items: 0 };
    try {
      const read = await def.read(connector as ErpConnector & ShopConnector, spec?.pageSizes?.[operation]);
      const items = Array.isArray(read) ? read : read.items;
      const rejected = Array.isArray(read) ? 0 : (read.rejected ?? 0);
      const answers = recorder?.answers.slice(seen) ?? [];
      // The sample is the read's biggest answer (its rows), not a login or lookup beside it.
      const raw = biggest(answers)?.body;
      const sample = redactedShape(raw !== undefined && typeof raw !== "string" ? raw : items.slice(0, 1));
      const differences = judgeItems(def.model, items).map((d) => differenceOf(d, sample));
      // One unreadable card is the merchant's data; a page of which none could be read is the answer's shape.
      if (rejected > 0 && items.length === 0)
        differences.push({
          rule: `${descriptor.system}.${operation}.unreadable`,
          field: operation,
          detail: `all ${rejected} records of the page were rejected by the connector`,
          sample,
        });
      for (const answer of answers)
        for (const v of applyRuntimeRules(spec?.answerRules ?? [], answer))
          differences.push({
            rule: v.rule,
            field: answer.path,
            detail: v.problems.join("; "),
            sample: redactedShape(answer.body),
          });
      results.push({
        ...base,
        status: differences.length ? "drift" : "ok",
        differences,
        items: items.length,
        calls: callsNow() - before,
      });
    } catch (error) {
      const calls = callsNow() - before;
      if (budgetRefused(error)) {
        results.push({ ...base, status: "untried", untriedReason: "budget", calls });
        continue;
      }
      const e =
        error instanceof ConnectorError
          ? error
          : new ConnectorError(String((error as Error)?.message ?? error), { reason: "bad_response" });
      if (e.reason === "bad_response") {
        // The system answered something the connector could not read: that is the difference itself.
        const raw = recorder?.answers.slice(seen).at(-1)?.body;
        results.push({
          ...base,
          status: "drift",
          calls,
          differences: [
            {
              rule: `${descriptor.system}.${operation}.unreadable`,
              field: operation,
              detail: e.message.slice(0, 300),
              sample: redactedShape(raw),
            },
          ],
        });
      } else {
        results.push({
          ...base,
          status: "untried",
          untriedReason: e.reason,
          untriedMessage: e.merchantMessage,
          calls,
        });
      }
    }
  }
  const operations = results;
  return {
    system: descriptor.system,
    side: descriptor.kind,
    plannedCalls: plannedCalls(spec, input.operations),
    calls: callsNow(),
    operations,
  };
}
