import { randomUUID } from "node:crypto";
import {
  CANCELLED_STATUS,
  ConnectorError,
  type EInvoiceProvider,
  type Order,
  type ShopConnector,
  sendOnce,
  statusSays,
} from "@ep/connectors";
import { message } from "@ep/contracts";
import {
  buildUblInvoice,
  chooseProfile,
  type EInvoiceProfile,
  type EInvoiceUserDirectory,
  internetSaleProblems,
  invoiceDocument,
  paidByInvoiceDay,
  returnRoute,
  VAT_EXEMPTION_351,
} from "@ep/einvoice";
import { engineSchema } from "@ep/engine";
import { and, asc, eq, inArray, isNull, lt, lte, or, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Db } from "../../platform/db/database.ts";
import { turkishDate, turkishTime } from "../../platform/time/turkey.ts";
import { listRates, rateFor } from "./exchange-rates.ts";
import { attachmentOf, salesOf, sendMarketplaceFeedback } from "./feedback.ts";
import { notInvoiced } from "./not-invoiced.ts";
import { allocateInvoiceNumber } from "./numbering.ts";
import { reasonOf } from "./returns.ts";
import { type EInvoiceState, einvoices } from "./schema.ts";
import { sellerFromCompany } from "./seller.ts";

const { orderLedger } = engineSchema;

/** The invoice job's settings (Sipariş Entegrasyonu › Fatura). */
export interface InvoiceJobSettings {
  /** GİB series, three letters/digits. */
  series: string;
  /** Keep documents as drafts at the provider (the company approves them there: SaveAsDraft). */
  draft: boolean;
  /** Which shop orders get an invoice. */
  invoiceWhen: "paid" | "shipped" | "all";
  /** e-Fatura profile for registered buyers. */
  eInvoiceProfile: EInvoiceProfile;
}

/** Automatic retry of sends that failed transiently (5xx, timeouts, dropped answers). */
export interface InvoiceRetryPolicy {
  /** Wait before the first retry; doubled for each further one (default: `leaseMs`). */
  baseMs?: number;
  /** Longest wait between two tries (default 1 hour). */
  maxMs?: number;
  /** Sends tried at most; then the ETTN is looked up once more and the row marked `error` if unknown (default 8). */
  maxAttempts?: number;
}

export interface InvoiceCycleInput {
  db: Db;
  companyId: number;
  shopConnectionId: number;
  /**
   * The e-invoice service. Absent for a portal without an API (LucaPortal): invoices are generated
   * (number, ETTN, UBL checked) and marked `generated` for the file export; nothing is sent.
   */
  provider?: EInvoiceProvider;
  directory?: EInvoiceUserDirectory;
  shop?: ShopConnector;
  /**
   * `shop` is a marketplace channel's connector: the link and the tracking number go back to it once each,
   * claimed and recorded (feedback.ts), instead of the shop's attachment.
   */
  marketplace?: boolean;
  settings: InvoiceJobSettings;
  /** The signed link the shop order carries: the invoice as a page and PDF (routes.ts customerLink). */
  invoiceLink?: (invoice: { id: number; companyId: number; ettn: string }) => string;
  now?: () => Date;
  limit?: number;
  /** A send left unanswered is only looked up again after this long (another worker may still be on it). */
  leaseMs?: number;
  retry?: InvoiceRetryPolicy;
}

export interface InvoiceCycleReport {
  prepared: number;
  /** Sales whose shop order was cancelled or returned after the invoice went out, routed (returns.ts). */
  returns: number;
  /** Returned sales answered by cancelling their e-Arşiv within its period (no IADE needed). */
  cancelled: number;
  /** Foreign-currency orders left uninvoiced: no rate of their own and none of the merchant's. */
  waitingRate: number;
  /** Their currencies (the merchant enters these rates). */
  waitingCurrencies: string[];
  /** e-Arşiv orders left unnumbered for lack of internet-sale data (web address, payment means and date). */
  waitingData: number;
  /** What they lack, in Turkish (einvoice's internetSaleProblems). */
  waitingDataReasons: string[];
  /** Generated for the file export (no provider). */
  generated: number;
  sent: number;
  adopted: number;
  failed: number;
  transient: number;
  refreshed: number;
  attached: number;
  /** Marketplace channels: tracking numbers sent, and links or numbers the marketplace refused for good. */
  tracked: number;
  feedbackRefused: number;
}

/** Two passes' reports as one (the manual run: the shop's and each channel's). */
export function sumReports(a: InvoiceCycleReport, b: InvoiceCycleReport): InvoiceCycleReport {
  const out = { ...a };
  for (const key of Object.keys(a) as Array<keyof InvoiceCycleReport>) {
    const [x, y] = [a[key], b[key]];
    if (typeof x === "number" && typeof y === "number") Object.assign(out, { [key]: x + y });
    else if (Array.isArray(x) && Array.isArray(y)) Object.assign(out, { [key]: [...new Set([...x, ...y])] });
  }
  return out;
}

class AlreadyInvoiced extends Error {}

const RETURNED = /cancel|iptal|refund|iade|return/i;

/** A shop order that was cancelled or returned (inferred from the shops' status words, like isEligible). */
export function isReturned(order: Order): boolean {
  return statusSays(RETURNED, order.status) || statusSays(RETURNED, order.paymentStatus);
}

/** Wait before retry number `attempt` (1 = first retry): base × 2^(attempt−1), at most `maxMs`. */
export function retryDelayMs(attempt: number, policy: Required<InvoiceRetryPolicy>): number {
  return Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
}

/** Inferred: shops name a paid order "PAID"/"paid"/"ÖDENDİ" and a shipped one "SHIPPED"/"DELIVERED"/"KARGO…". */
export function isEligible(
  order: Order,
  when: InvoiceJobSettings["invoiceWhen"],
  marketplace = false,
): boolean {
  if (statusSays(CANCELLED_STATUS, order.status)) return false;
  if (when === "all") return true;
  // A marketplace collects the payment before it hands the order to the seller (its connectors map it as
  // "ödeme aracısı"); only a package still awaiting the payment's approval (Trendyol "Awaiting") is unpaid.
  if (when === "paid" && marketplace)
    return (
      !statusSays(/await|pending|unpaid|bekle/i, order.status) &&
      !statusSays(/await|pending|unpaid|bekle|fail/i, order.paymentStatus)
    );
  if (when === "paid") return statusSays(/paid|ödendi|odendi|success|captured/i, order.paymentStatus);
  return statusSays(/ship|deliver|kargo|teslim|fulfill/i, order.status);
}

function buyerName(order: Order): string {
  const c = order.customer;
  return c.companyName?.trim() || `${c.firstName} ${c.lastName}`.trim() || c.ref;
}

/**
 * One pass of the invoice job for one shop connection:
 * 1. every eligible order without an invoice gets an ETTN and a GİB number, stored (`prepared`) in one
 *    transaction before anything is sent;
 * 2. prepared invoices are sent with `sendOnce`; one whose earlier send went unanswered is looked up by
 *    ETTN first, so a buyer never gets two invoices for one order;
 * 3. pending ones are asked for their GİB status;
 * 4. the number and a PDF link go to the shop order.
 */
export async function runInvoiceCycle(input: InvoiceCycleInput): Promise<InvoiceCycleReport> {
  const report: InvoiceCycleReport = {
    prepared: 0,
    returns: 0,
    cancelled: 0,
    waitingRate: 0,
    waitingCurrencies: [],
    waitingData: 0,
    waitingDataReasons: [],
    generated: 0,
    sent: 0,
    adopted: 0,
    failed: 0,
    transient: 0,
    refreshed: 0,
    attached: 0,
    tracked: 0,
    feedbackRefused: 0,
  };
  await prepare(input, report);
  await prepareReturns(input, report);
  if (input.provider) {
    await send(input, input.provider, report);
    await refresh(input, input.provider, report);
    if (input.shop && input.marketplace && input.invoiceLink) {
      const fed = await sendMarketplaceFeedback({
        ...input,
        shop: input.shop,
        invoiceLink: input.invoiceLink,
      });
      report.attached += fed.linked;
      report.tracked += fed.tracked;
      report.feedbackRefused += fed.refused;
      report.transient += fed.transient;
    } else if (input.shop) await attach(input, input.shop, report);
  } else await generate(input, report);
  return report;
}

async function prepare(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId } = input;
  const now = input.now ?? (() => new Date());
  const orders = await db
    .select({
      orderNo: orderLedger.orderNo,
      shopOrderId: orderLedger.shopOrderId,
      payload: orderLedger.payload,
    })
    .from(orderLedger)
    .where(
      and(
        eq(orderLedger.companyId, companyId),
        eq(orderLedger.shopConnectionId, shopConnectionId),
        // The ledger state is about the ERP transfer, which an e-invoice service does not take: the
        // shop order's own state (payload) decides, see isEligible.
        notInvoiced(db, companyId),
      ),
    )
    .orderBy(asc(orderLedger.orderDate))
    .limit(input.limit ?? 500);
  if (orders.length === 0) return;
  // Without a provider nobody can say who is a registered e-Fatura user: every buyer gets an e-Arşiv
  // (inferred; VERIFIED in the README: the merchant corrects a registered buyer's invoice on the portal).
  const directory: EInvoiceUserDirectory = input.directory ??
    input.provider ?? { isEInvoiceUser: async () => false };
  const merchantRates = await listRates(db, companyId);
  // Before any number is taken: settings that cannot make a seller stop the pass (the merchant fixes them).
  const seller = await sellerFromCompany(db, companyId);
  const waiting = new Set<string>();
  const lacking = new Set<string>();
  for (const row of orders) {
    const order = row.payload as Order;
    if (!isEligible(order, input.settings.invoiceWhen, input.marketplace)) continue;
    const at = now();
    const rate = rateFor(order, turkishDate(at), merchantRates);
    if (rate === undefined) {
      // Never a guessed rate: the order waits until the merchant enters one (the Faturalar screen asks).
      report.waitingRate++;
      waiting.add(order.currency.toUpperCase());
      continue;
    }
    let profile: Awaited<ReturnType<typeof chooseProfile>>;
    try {
      profile = await chooseProfile(order.customer, directory, input.settings.eInvoiceProfile);
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === "transient") {
        report.transient++;
        continue;
      }
      throw error;
    }
    // An e-Arşiv of an internet sale needs the web address and the payment (GİB, the integrators): without
    // them the order waits, unnumbered, and the run says what is missing.
    const problems =
      profile === "EARSIVFATURA"
        ? internetSaleProblems(paidByInvoiceDay(order, turkishDate(at)), seller)
        : [];
    if (problems.length > 0) {
      report.waitingData++;
      for (const p of problems) lacking.add(p);
      continue;
    }
    try {
      await db.transaction(async (tx) => {
        const { number } = await allocateInvoiceNumber(tx, {
          companyId,
          series: input.settings.series,
          year: Number(turkishDate(at).slice(0, 4)),
        });
        const inserted = await tx
          .insert(einvoices)
          .values({
            companyId,
            shopConnectionId,
            orderNo: row.orderNo,
            shopOrderId: row.shopOrderId,
            ettn: randomUUID(),
            number,
            profile,
            buyer: buyerName(order),
            total: order.totals.grandTotal,
            currency: order.currency,
            issueDate: turkishDate(at),
            issueTime: turkishTime(at),
            exchangeRate: rate?.rate ?? null,
            rateSource: rate?.source ?? null,
          })
          .onConflictDoNothing()
          .returning({ id: einvoices.id });
        // Another worker invoiced it meanwhile: give the number back with the rollback.
        if (inserted.length === 0) throw new AlreadyInvoiced();
      });
      report.prepared++;
    } catch (error) {
      if (!(error instanceof AlreadyInvoiced)) throw error;
    }
  }
  report.waitingCurrencies = [...waiting].sort();
  report.waitingDataReasons = [...lacking];
}

const original = alias(einvoices, "original");

/** Invoices with their order's payload and, for an IADE, the invoice it returns (the flow and the export). */
export function invoicesWithOrders(db: Db, where: SQL | undefined) {
  return db
    .select({
      invoice: einvoices,
      payload: orderLedger.payload,
      returnOf: { number: original.number, issueDate: original.issueDate, ettn: original.ettn },
    })
    .from(einvoices)
    .innerJoin(
      orderLedger,
      and(
        eq(orderLedger.shopConnectionId, einvoices.shopConnectionId),
        eq(orderLedger.orderNo, einvoices.orderNo),
      ),
    )
    .leftJoin(original, eq(original.id, einvoices.returnOfId))
    .where(where);
}

/** Prepared rows with their order and, for an IADE, the invoice it returns. */
function preparedRows(input: InvoiceCycleInput, extra?: ReturnType<typeof and>) {
  const { db, companyId, shopConnectionId } = input;
  return invoicesWithOrders(
    db,
    and(
      eq(einvoices.companyId, companyId),
      eq(einvoices.shopConnectionId, shopConnectionId),
      eq(einvoices.state, "prepared"),
      extra,
    ),
  )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
}

export type PreparedRow = Awaited<ReturnType<typeof preparedRows>>[number];

/**
 * Whether the order's line VAT rates are the source's own: Amazon's order answer holds amounts only, so its
 * connector writes 0 for "unknown" (amazon/VERIFIED.md); the ERP item's rate must come in first.
 */
function vatRatesKnown(order: Order): boolean {
  return !statusSays(/^amazon/i, order.salesChannel);
}

export function buildFor(row: PreparedRow, seller: Awaited<ReturnType<typeof sellerFromCompany>>) {
  const { invoice, payload, returnOf } = row;
  const order =
    invoice.profile === "EARSIVFATURA"
      ? paidByInvoiceDay(payload as Order, invoice.issueDate)
      : (payload as Order);
  const header = {
    profile: invoice.profile,
    type: invoice.type,
    number: invoice.number,
    uuid: invoice.ettn,
    issueDate: invoice.issueDate,
    // Rows from before migration 0048 kept no time: they were numbered when created.
    issueTime: invoice.issueTime ?? turkishTime(invoice.createdAt),
    // 0 % VAT lines (books, …) are issued with 351, as einvoice's README decides; written only on a 0,00
    // VAT subtotal. Not for a source whose 0 means "unknown" (Amazon): that order stays refused, never a
    // wrong 0 % invoice.
    ...(vatRatesKnown(order) ? { vatExemption: VAT_EXEMPTION_351 } : {}),
    ...(invoice.exchangeRate ? { exchangeRate: invoice.exchangeRate } : {}),
    ...(invoice.type === "IADE" && returnOf
      ? { returnOf: { number: returnOf.number, issueDate: returnOf.issueDate } }
      : {}),
  };
  const built = buildUblInvoice(order, seller, header);
  const document = invoiceDocument(order, header, built.amounts, seller);
  if (document.returnOf && returnOf) document.returnOf.ettn = returnOf.ettn;
  return { xml: built.xml, document };
}

/**
 * A sale whose shop order was cancelled or returned after its invoice went out goes the route einvoice's
 * return rules give (`returnRoute`, sources in packages/einvoice/README.md): an e-Arşiv within its
 * cancellation period is cancelled at the service; otherwise the return invoice is the buyer's to issue (an
 * e-Fatura user's IADE as TEMELFATURA, a company's on its own terms) and a consumer's return after the period
 * is documented by the merchant with a gider pusulası: the seller issues nothing. Each sale is decided once;
 * the route and its reason are kept on the sale for the Faturalar screen.
 */
async function prepareReturns(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId } = input;
  const now = input.now ?? (() => new Date());
  const sold = await db
    .select({ invoice: einvoices, payload: orderLedger.payload })
    .from(einvoices)
    .innerJoin(
      orderLedger,
      and(
        eq(orderLedger.shopConnectionId, einvoices.shopConnectionId),
        eq(orderLedger.orderNo, einvoices.orderNo),
      ),
    )
    .where(
      and(
        eq(einvoices.companyId, companyId),
        eq(einvoices.shopConnectionId, shopConnectionId),
        eq(einvoices.type, "SATIS"),
        // Out (sent, or generated for upload): a prepared one is not out yet, a refused one never was.
        inArray(einvoices.state, ["queued", "sent", "approved", "generated"]),
        isNull(einvoices.returnRoute),
      ),
    )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
  for (const { invoice, payload } of sold) {
    const order = payload as Order;
    if (!isReturned(order)) continue;
    const at = now();
    const route = returnRoute(
      {
        profile: invoice.profile,
        issueDate: invoice.issueDate,
        // The profile was chosen by the buyer's registration when the sale was issued.
        buyerIsEInvoiceUser: invoice.profile !== "EARSIVFATURA",
        buyerIsCompany: order.customer.isCompany === true,
      },
      at,
    );
    let reason = reasonOf(route);
    if (route.route === "cancel") {
      if (input.provider) {
        const outcome = await cancelReturned(db, input.provider, invoice, at);
        if (outcome === "cancelled") {
          report.cancelled++;
          report.returns++;
          continue;
        }
        if (outcome === "later") {
          report.transient++;
          continue;
        }
        reason = "cancelRefused";
      } else reason = "noApi";
    }
    await db
      .update(einvoices)
      .set({ returnRoute: route.route, returnReason: reason, updatedAt: at })
      .where(and(eq(einvoices.id, invoice.id), isNull(einvoices.returnRoute)));
    report.returns++;
  }
}

/**
 * Cancels a returned sale's e-Arşiv at the service. Exactly once like a send: an unanswered or refused
 * cancel is settled by asking the service for the document's state (already cancelled counts as done).
 */
async function cancelReturned(
  db: Db,
  provider: EInvoiceProvider,
  invoice: { id: number; ettn: string },
  at: Date,
): Promise<"cancelled" | "later" | "refused"> {
  const mark = () =>
    db
      .update(einvoices)
      .set({ state: "cancelled", returnRoute: "cancel", returnReason: "cancelWithinPeriod", updatedAt: at })
      .where(eq(einvoices.id, invoice.id));
  try {
    await provider.cancelEArchive(invoice.ettn, message("einvoices.returnCancelNote"));
    await mark();
    return "cancelled";
  } catch (error) {
    if (!(error instanceof ConnectorError)) throw error;
    const [known] = await provider.queryStatus([invoice.ettn]).catch(() => [undefined]);
    if (known?.found && known.status === "cancelled") {
      await mark();
      return "cancelled";
    }
    return error.kind === "transient" || error.maybeApplied || known === undefined ? "later" : "refused";
  }
}

/** A portal without an API: prepared invoices are built (the UBL must come out right) and kept for export. */
async function generate(input: InvoiceCycleInput, report: InvoiceCycleReport) {
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

async function send(input: InvoiceCycleInput, provider: EInvoiceProvider, report: InvoiceCycleReport) {
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
        if (known?.found) {
          await setState(
            db,
            invoice.id,
            known.status ?? "queued",
            known.providerStatus,
            known.message,
            now(),
          );
          report.adopted++;
          continue;
        }
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
        if (known?.found) {
          await setState(
            db,
            invoice.id,
            known.status ?? "queued",
            known.providerStatus,
            known.message,
            now(),
          );
          report.adopted++;
          continue;
        }
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
  if (known.found) {
    await setState(db, invoice.id, known.status ?? "queued", known.providerStatus, known.message, at);
    report.adopted++;
    return;
  }
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

async function setState(
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

const PENDING: EInvoiceState[] = ["draft", "queued", "sent"];

async function refresh(input: InvoiceCycleInput, provider: EInvoiceProvider, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId } = input;
  const now = input.now ?? (() => new Date());
  const rows = await db
    .select({ id: einvoices.id, ettn: einvoices.ettn, state: einvoices.state })
    .from(einvoices)
    .where(
      and(
        eq(einvoices.companyId, companyId),
        eq(einvoices.shopConnectionId, shopConnectionId),
        inArray(einvoices.state, PENDING),
      ),
    )
    .orderBy(asc(einvoices.updatedAt))
    .limit(input.limit ?? 500);
  for (let i = 0; i < rows.length; i += 50) {
    const chunk = rows.slice(i, i + 50);
    let answers: Awaited<ReturnType<EInvoiceProvider["queryStatus"]>>;
    try {
      answers = await provider.queryStatus(chunk.map((r) => r.ettn));
    } catch (error) {
      if (error instanceof ConnectorError && error.kind === "transient") {
        report.transient++;
        continue;
      }
      throw error;
    }
    const byEttn = new Map(answers.map((a) => [a.ettn, a]));
    for (const row of chunk) {
      const answer = byEttn.get(row.ettn);
      if (!answer?.found || !answer.status) continue;
      await setState(db, row.id, answer.status, answer.providerStatus, answer.message, now());
      report.refreshed++;
    }
  }
}

async function attach(input: InvoiceCycleInput, shop: ShopConnector, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId } = input;
  const now = input.now ?? (() => new Date());
  const rows = await db
    .select()
    .from(einvoices)
    .where(
      and(
        salesOf(companyId, shopConnectionId),
        inArray(einvoices.state, ["queued", "sent", "approved"]),
        isNull(einvoices.attachedAt),
      ),
    )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
  for (const row of rows) {
    try {
      await shop.attachInvoice(row.shopOrderId, attachmentOf(row, input.invoiceLink?.(row)));
      await db.update(einvoices).set({ attachedAt: now() }).where(eq(einvoices.id, row.id));
      report.attached++;
    } catch (error) {
      if (error instanceof ConnectorError) {
        report.transient++;
        continue;
      }
      throw error;
    }
  }
}
