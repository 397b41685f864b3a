import { ConnectorError, type InvoiceAttachment, type ShopConnector } from "@ep/connectors";
import { and, asc, eq, inArray, isNotNull, isNull, lte, or, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { einvoices } from "./schema.ts";

/**
 * What a marketplace takes back after the seller invoiced and shipped its order (issue 37): the invoice's
 * link (Trendyol sendInvoiceLink, Hepsiburada's package invoice) and the shipment's tracking number
 * (Trendyol update-tracking-number, Hepsiburada intransit, Amazon confirmShipment). Each goes once:
 * - a row is claimed by bumping its attempt count from what was read, and the claim holds for `leaseMs`, so
 *   two workers never send it together and a killed worker's claim lapses;
 * - success is recorded at once; a 429/5xx/timeout waits base × 2^(tries−1) (at most `maxMs`) and is tried
 *   again; a resend after a lost answer meets the marketplace's own "already there" (Trendyol's 409, read as
 *   done by its connector; Hepsiburada's and Amazon's writes are idempotent by package);
 * - a marketplace that takes no link or number (n11's tracking is its own, Amazon TR takes no invoice link)
 *   refuses with its reason, recorded once and never retried; other refusals (no package yet) are retried
 *   until `maxAttempts`, then recorded as refused.
 */
export interface FeedbackInput {
  db: Db;
  companyId: number;
  /** The channel's connection (its orders' ledger key). */
  shopConnectionId: number;
  shop: ShopConnector;
  /** The invoice's public link (links.ts customerLink). */
  invoiceLink: (invoice: { id: number; companyId: number; ettn: string }) => string;
  now?: () => Date;
  leaseMs?: number;
  retry?: { baseMs?: number; maxMs?: number; maxAttempts?: number };
  limit?: number;
}

export interface FeedbackReport {
  linked: number;
  tracked: number;
  refused: number;
  transient: number;
}

type Policy = { leaseMs: number; baseMs: number; maxMs: number; maxAttempts: number };

function policyOf(input: FeedbackInput): Policy {
  const leaseMs = input.leaseMs ?? 60_000;
  return {
    leaseMs,
    baseMs: input.retry?.baseMs ?? leaseMs,
    maxMs: input.retry?.maxMs ?? 3_600_000,
    maxAttempts: input.retry?.maxAttempts ?? 8,
  };
}

/** The invoice's link, then its tracking number, to the marketplace; see above. */
export async function sendMarketplaceFeedback(input: FeedbackInput): Promise<FeedbackReport> {
  const report: FeedbackReport = { linked: 0, tracked: 0, refused: 0, transient: 0 };
  await runStep(input, policyOf(input), report, linkStep(input));
  await runStep(input, policyOf(input), report, trackingStep(input));
  return report;
}

/** The outcome of one marketplace call, as the columns of the step record it. */
type Outcome = "done" | "later" | "refused";

function outcomeOf(error: unknown, attempts: number, policy: Policy): Outcome {
  if (!(error instanceof ConnectorError)) throw error;
  if (error.reason === "unsupported") return "refused";
  if (attempts >= policy.maxAttempts) return "refused";
  return "later";
}

function waitMs(error: unknown, attempts: number, policy: Policy): number {
  // A refusal that may change (the package is not made yet) waits the longest; a 429/5xx grows from the base.
  if (error instanceof ConnectorError && error.kind !== "transient") return policy.maxMs;
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempts - 1));
}

function textOf(error: unknown): string {
  if (!(error instanceof ConnectorError)) return String(error);
  return error.merchantMessage ?? error.systemMessage ?? error.message;
}

type Row = typeof einvoices.$inferSelect;

/** The invoice as the shop or marketplace takes it: number, ETTN, date, total and the customer's link. */
export function attachmentOf(row: Row, url: string | undefined): InvoiceAttachment {
  return {
    invoice: {
      orderRef: row.orderNo,
      number: row.number,
      uuid: row.ettn,
      date: row.issueDate,
      currency: row.currency,
      lines: [],
      totals: { net: 0, tax: 0, gross: row.total },
      ...(url ? { url } : {}),
    },
  };
}

/**
 * The sale invoices of one connection's orders: what its order carries (a return invoice is the buyer's or
 * a cancellation, returns.ts, and never goes over the sale's).
 */
export function salesOf(companyId: number, shopConnectionId: number): SQL | undefined {
  return and(
    eq(einvoices.companyId, companyId),
    eq(einvoices.shopConnectionId, shopConnectionId),
    eq(einvoices.type, "SATIS"),
  );
}

/** A page (oldest first) of one connection's sale invoices that meet `where`: what a follow-up step works on. */
export function salesPage(
  input: { db: Db; companyId: number; shopConnectionId: number; limit?: number },
  where: SQL | undefined,
) {
  return input.db
    .select()
    .from(einvoices)
    .where(and(salesOf(input.companyId, input.shopConnectionId), where))
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
}

/** A step's columns: attempts (the claim), next try, done, refused and the last words. */
type StepColumns = {
  attempts: "attachAttempts" | "trackingAttempts";
  nextAt: "attachNextAt" | "trackingNextAt";
  doneAt: "attachedAt" | "trackingSentAt";
  refusedAt: "attachRefusedAt" | "trackingRefusedAt";
  message: "attachMessage" | "trackingMessage";
};

/** One thing sent back to the marketplace. */
interface Step {
  columns: StepColumns;
  /** Which rows are due besides the step's own columns. */
  due: SQL | undefined;
  send(row: Row): Promise<void>;
  /** The row as it was claimed still holds (a tracking number changed meanwhile is sent again). */
  stillSame?: (row: Row) => SQL;
  counted: "linked" | "tracked";
}

async function runStep(input: FeedbackInput, policy: Policy, report: FeedbackReport, step: Step) {
  const { db } = input;
  const now = input.now ?? (() => new Date());
  const k = step.columns;
  const [attemptsCol, nextAtCol, doneAtCol, refusedAtCol] = [
    einvoices[k.attempts],
    einvoices[k.nextAt],
    einvoices[k.doneAt],
    einvoices[k.refusedAt],
  ];
  const rows = await salesPage(
    input,
    and(step.due, isNull(doneAtCol), isNull(refusedAtCol), or(isNull(nextAtCol), lte(nextAtCol, now()))),
  );
  for (const row of rows) {
    const attempts = row[k.attempts] + 1;
    // Claim: only the worker that bumps the count from what it read sends; the lease lapses if it dies.
    const claimed = await db
      .update(einvoices)
      .set({ [k.attempts]: attempts, [k.nextAt]: new Date(now().getTime() + policy.leaseMs) })
      .where(and(eq(einvoices.id, row.id), eq(attemptsCol, attempts - 1), isNull(doneAtCol)))
      .returning({ id: einvoices.id });
    if (claimed.length === 0) continue;
    try {
      await step.send(row);
      await db
        .update(einvoices)
        .set({ [k.doneAt]: now(), [k.nextAt]: null, [k.message]: null })
        .where(and(eq(einvoices.id, row.id), step.stillSame?.(row)));
      report[step.counted]++;
    } catch (error) {
      const outcome = outcomeOf(error, attempts, policy);
      await db
        .update(einvoices)
        .set(
          outcome === "refused"
            ? { [k.refusedAt]: now(), [k.nextAt]: null, [k.message]: textOf(error) }
            : {
                [k.nextAt]: new Date(now().getTime() + waitMs(error, attempts, policy)),
                [k.message]: textOf(error),
              },
        )
        .where(eq(einvoices.id, row.id));
      if (outcome === "refused") report.refused++;
      else report.transient++;
    }
  }
}

/** The invoice's link, once it is out at GİB's side (queued, sent or approved). */
function linkStep(input: FeedbackInput): Step {
  return {
    columns: {
      attempts: "attachAttempts",
      nextAt: "attachNextAt",
      doneAt: "attachedAt",
      refusedAt: "attachRefusedAt",
      message: "attachMessage",
    },
    due: inArray(einvoices.state, ["queued", "sent", "approved"]),
    send: (row) => input.shop.attachInvoice(row.shopOrderId, attachmentOf(row, input.invoiceLink(row))),
    counted: "linked",
  };
}

/**
 * The tracking number the merchant entered (PUT /api/invoices/:id/shipment), once the link step is settled
 * (sent or refused): the marketplaces want the invoice before the package ships.
 */
function trackingStep(input: FeedbackInput): Step {
  return {
    columns: {
      attempts: "trackingAttempts",
      nextAt: "trackingNextAt",
      doneAt: "trackingSentAt",
      refusedAt: "trackingRefusedAt",
      message: "trackingMessage",
    },
    due: and(
      isNotNull(einvoices.trackingNumber),
      or(isNotNull(einvoices.attachedAt), isNotNull(einvoices.attachRefusedAt)),
    ),
    send: (row) =>
      input.shop.updateOrderStatus(row.shopOrderId, {
        status: "Shipped",
        trackingNumber: row.trackingNumber ?? "",
        ...(row.carrier ? { cargoCompany: row.carrier } : {}),
      }),
    // A number changed while this one was on its way is sent by the next pass.
    stillSame: (row) => eq(einvoices.trackingNumber, row.trackingNumber ?? ""),
    counted: "tracked",
  };
}
