import { ConnectorError, type ShopConnector } from "@ep/connectors";
import { and, asc, eq, inArray, isNotNull, isNull, lte, or } from "drizzle-orm";
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
  await sendLinks(input, policyOf(input), report);
  await sendTracking(input, policyOf(input), report);
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

async function sendLinks(input: FeedbackInput, policy: Policy, report: FeedbackReport) {
  const { db, companyId, shopConnectionId, shop } = input;
  const now = input.now ?? (() => new Date());
  const at = now();
  const rows = await db
    .select()
    .from(einvoices)
    .where(
      and(
        eq(einvoices.companyId, companyId),
        eq(einvoices.shopConnectionId, shopConnectionId),
        inArray(einvoices.state, ["queued", "sent", "approved"]),
        // The order carries its sale invoice; a return is the buyer's or cancelled (returns.ts).
        eq(einvoices.type, "SATIS"),
        isNull(einvoices.attachedAt),
        isNull(einvoices.attachRefusedAt),
        or(isNull(einvoices.attachNextAt), lte(einvoices.attachNextAt, at)),
      ),
    )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
  for (const row of rows) {
    const attempts = row.attachAttempts + 1;
    const claimed = await db
      .update(einvoices)
      .set({ attachAttempts: attempts, attachNextAt: new Date(now().getTime() + policy.leaseMs) })
      .where(
        and(
          eq(einvoices.id, row.id),
          eq(einvoices.attachAttempts, row.attachAttempts),
          isNull(einvoices.attachedAt),
        ),
      )
      .returning({ id: einvoices.id });
    if (claimed.length === 0) continue;
    try {
      await shop.attachInvoice(row.shopOrderId, {
        invoice: {
          orderRef: row.orderNo,
          number: row.number,
          uuid: row.ettn,
          date: row.issueDate,
          currency: row.currency,
          lines: [],
          totals: { net: 0, tax: 0, gross: row.total },
          url: input.invoiceLink(row),
        },
      });
      await db
        .update(einvoices)
        .set({ attachedAt: now(), attachNextAt: null, attachMessage: null })
        .where(eq(einvoices.id, row.id));
      report.linked++;
    } catch (error) {
      const outcome = outcomeOf(error, attempts, policy);
      await db
        .update(einvoices)
        .set(
          outcome === "refused"
            ? { attachRefusedAt: now(), attachNextAt: null, attachMessage: textOf(error) }
            : {
                attachNextAt: new Date(now().getTime() + waitMs(error, attempts, policy)),
                attachMessage: textOf(error),
              },
        )
        .where(eq(einvoices.id, row.id));
      if (outcome === "refused") report.refused++;
      else report.transient++;
    }
  }
}

/**
 * The tracking number the merchant entered (PUT /api/invoices/:id/shipment), once the invoice step is
 * settled (sent or refused): the marketplaces want the invoice before the package ships.
 */
async function sendTracking(input: FeedbackInput, policy: Policy, report: FeedbackReport) {
  const { db, companyId, shopConnectionId, shop } = input;
  const now = input.now ?? (() => new Date());
  const at = now();
  const rows = await db
    .select()
    .from(einvoices)
    .where(
      and(
        eq(einvoices.companyId, companyId),
        eq(einvoices.shopConnectionId, shopConnectionId),
        eq(einvoices.type, "SATIS"),
        isNotNull(einvoices.trackingNumber),
        or(isNotNull(einvoices.attachedAt), isNotNull(einvoices.attachRefusedAt)),
        isNull(einvoices.trackingSentAt),
        isNull(einvoices.trackingRefusedAt),
        or(isNull(einvoices.trackingNextAt), lte(einvoices.trackingNextAt, at)),
      ),
    )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
  for (const row of rows) {
    const attempts = row.trackingAttempts + 1;
    const claimed = await db
      .update(einvoices)
      .set({ trackingAttempts: attempts, trackingNextAt: new Date(now().getTime() + policy.leaseMs) })
      .where(
        and(
          eq(einvoices.id, row.id),
          eq(einvoices.trackingAttempts, row.trackingAttempts),
          isNull(einvoices.trackingSentAt),
        ),
      )
      .returning({ id: einvoices.id });
    if (claimed.length === 0) continue;
    // The number as it was when claimed: a change meanwhile is sent by the next pass (trackingSentAt reset).
    const trackingNumber = row.trackingNumber ?? "";
    try {
      await shop.updateOrderStatus(row.shopOrderId, {
        status: "Shipped",
        trackingNumber,
        ...(row.carrier ? { cargoCompany: row.carrier } : {}),
      });
      await db
        .update(einvoices)
        .set({ trackingSentAt: now(), trackingNextAt: null, trackingMessage: null })
        .where(and(eq(einvoices.id, row.id), eq(einvoices.trackingNumber, trackingNumber)));
      report.tracked++;
    } catch (error) {
      const outcome = outcomeOf(error, attempts, policy);
      await db
        .update(einvoices)
        .set(
          outcome === "refused"
            ? { trackingRefusedAt: now(), trackingNextAt: null, trackingMessage: textOf(error) }
            : {
                trackingNextAt: new Date(now().getTime() + waitMs(error, attempts, policy)),
                trackingMessage: textOf(error),
              },
        )
        .where(eq(einvoices.id, row.id));
      if (outcome === "refused") report.refused++;
      else report.transient++;
    }
  }
}
