import { ConnectorError, type EInvoiceProvider, sendOnce } from "@ep/connectors";
import { and, eq, isNull, lt, lte, or } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import type { InvoiceCycleInput, InvoiceCycleReport, InvoiceRetryPolicy } from "./cycle-types.ts";
import { buildFor, preparedRows } from "./documents.ts";
import { type EInvoiceState, einvoices } from "./schema.ts";
import { sellerFromCompany } from "./seller.ts";

/** Wait before retry number `attempt` (1 = first retry): base × 2^(attempt−1), at most `maxMs`. */
export function retryDelayMs(attempt: number, policy: Required<InvoiceRetryPolicy>): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
}
/** A portal without an API: prepared invoices are built (the UBL must come out right) and kept for export. */
export async function generate(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId } = input;
  const now = input.now ?? (() => new Date());
  const seller = await sellerFromCompany(db, companyId);
  for (const row of await preparedRows(input)) {
    try {
      const { xml } = buildFor(row, seller);
      await db.update(einvoices).set({ ubl: xml }).where(eq(einvoices.id, row.invoice.id));
      await setState(db, row.invoice.id, "generated", undefined, undefined, now());
      report.generated++;
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      await setState(db, row.invoice.id, "error", undefined, error.message, now());
      report.failed++;
    }
  }
}

export async function send(input: InvoiceCycleInput, provider: EInvoiceProvider, report: InvoiceCycleReport) {
  const { db, companyId } = input;
  const now = input.now ?? (() => new Date());
  const leaseMs = input.leaseMs ?? 60_000;
  const policy: Required<InvoiceRetryPolicy> = {
    baseMs: input.retry?.baseMs ?? leaseMs,
    maxMs: input.retry?.maxMs ?? 3_600_000,
    maxAttempts: input.retry?.maxAttempts ?? 8,
  };
  const seller = await sellerFromCompany(db, companyId);
  const at = now();
  const rows = await preparedRows(
    input,
    and(
      or(eq(einvoices.sendAttempts, 0), lt(einvoices.updatedAt, new Date(at.getTime() - leaseMs))),
      or(isNull(einvoices.nextAttemptAt), lte(einvoices.nextAttemptAt, at)),
    ),
  );
  for (const row of rows) {
    const { invoice } = row;
    // Claim: only the worker that bumps the attempt count from what it read may send.
    const claimed = await db
      .update(einvoices)
      .set({ sendAttempts: invoice.sendAttempts + 1, updatedAt: now() })
      .where(
        and(
          eq(einvoices.id, invoice.id),
          eq(einvoices.state, "prepared"),
          eq(einvoices.sendAttempts, invoice.sendAttempts),
        ),
      )
      .returning({ id: einvoices.id });
    if (claimed.length === 0) continue;
    try {
      if (invoice.sendAttempts > 0) {
        // An earlier send (maybe by a killed worker) got no answer: the provider may hold it already.
        const [known] = await provider.queryStatus([invoice.ettn]);
        if (await adopt(db, invoice.id, known, now(), report)) continue;
      }
      const { xml, document } = buildFor(row, seller);
      // Kept as sent: the customer's page and PDF show this document, whatever the settings become.
      await db.update(einvoices).set({ ubl: xml }).where(eq(einvoices.id, invoice.id));
      const sent = await sendOnce(provider, {
        ettn: invoice.ettn,
        xml,
        document,
        draft: input.settings.draft,
        scenario: invoice.profile === "EARSIVFATURA" ? "eArchive" : "eInvoice",
        localId: invoice.orderNo,
      });
      await setState(db, invoice.id, sent.status, undefined, undefined, now());
      if (sent.existed) report.adopted++;
      else report.sent++;
    } catch (error) {
      if (error instanceof ConnectorError && (error.kind === "transient" || error.maybeApplied)) {
        // Stays `prepared` with its attempt counted: the next pass looks the ETTN up before resending,
        // after a growing wait; past the cap a last lookup decides between "it arrived" and `error`.
        await retryLater(db, provider, invoice, error, policy, now(), report);
        continue;
      }
      if (error instanceof ConnectorError) {
        // A refusal of a document the provider holds (another worker's send landed first, e.g. "ETTN already
        // stored") is no error: the ETTN is looked up once more before the row is marked.
        const [known] = await provider.queryStatus([invoice.ettn]).catch(() => []);
        if (await adopt(db, invoice.id, known, now(), report)) continue;
      }
      if (error instanceof ConnectorError || error instanceof RangeError) {
        await setState(db, invoice.id, "error", undefined, error.message, now());
        report.failed++;
        continue;
      }
      throw error;
    }
  }
}

async function retryLater(
  db: Db,
  provider: EInvoiceProvider,
  invoice: { id: number; ettn: string; sendAttempts: number },
  error: ConnectorError,
  policy: Required<InvoiceRetryPolicy>,
  at: Date,
  report: InvoiceCycleReport,
) {
  const attempts = invoice.sendAttempts + 1;
  if (attempts < policy.maxAttempts) {
    await db
      .update(einvoices)
      .set({
        nextAttemptAt: new Date(at.getTime() + retryDelayMs(attempts, policy)),
        message: error.message,
      })
      .where(and(eq(einvoices.id, invoice.id), eq(einvoices.state, "prepared")));
    report.transient++;
    return;
  }
  // The cap: never give up on a document the provider may hold. An unanswerable lookup keeps it waiting.
  const [known] = await provider.queryStatus([invoice.ettn]).catch(() => [undefined]);
  if (known === undefined) {
    report.transient++;
    return;
  }
  if (await adopt(db, invoice.id, known, at, report)) return;
  await setState(
    db,
    invoice.id,
    "error",
    undefined,
    `${attempts} denemede geçici hata: ${error.message}`,
    at,
  );
  report.failed++;
}

type StatusAnswer = Awaited<ReturnType<EInvoiceProvider["queryStatus"]>>[number];

/** The provider holds the document already (an earlier send, or another worker's, landed): take its state. */
async function adopt(
  db: Db,
  id: number,
  known: StatusAnswer | undefined,
  at: Date,
  report: InvoiceCycleReport,
): Promise<boolean> {
  if (!known?.found) return false;
  await setState(db, id, known.status ?? "queued", known.providerStatus, known.message, at);
  report.adopted++;
  return true;
}

export async function setState(
  db: Db,
  id: number,
  state: EInvoiceState,
  providerStatus: string | undefined,
  message: string | undefined,
  at: Date,
) {
  await db
    .update(einvoices)
    .set({ state, providerStatus: providerStatus ?? null, message: message ?? null, updatedAt: at })
    .where(eq(einvoices.id, id));
}
