import { randomUUID } from "node:crypto";
import {
  ConnectorError,
  type EInvoiceProvider,
  type Order,
  type ShopConnector,
  sendOnce,
} from "@ep/connectors";
import {
  buildUblInvoice,
  chooseProfile,
  type EInvoiceProfile,
  type EInvoiceUserDirectory,
} from "@ep/einvoice";
import { engineSchema } from "@ep/engine";
import { and, asc, eq, inArray, isNull, lt, notExists, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { turkishDate } from "../../platform/time/turkey.ts";
import { allocateInvoiceNumber } from "./numbering.ts";
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

export interface InvoiceCycleInput {
  db: Db;
  companyId: number;
  shopConnectionId: number;
  provider: EInvoiceProvider;
  directory?: EInvoiceUserDirectory;
  shop?: ShopConnector;
  settings: InvoiceJobSettings;
  /** Signed public PDF link for the shop (see pdf-link.ts). */
  pdfLink?: (invoiceId: number) => string;
  now?: () => Date;
  limit?: number;
  /** A send left unanswered is only looked up again after this long (another worker may still be on it). */
  leaseMs?: number;
}

export interface InvoiceCycleReport {
  prepared: number;
  sent: number;
  adopted: number;
  failed: number;
  transient: number;
  refreshed: number;
  attached: number;
}

class AlreadyInvoiced extends Error {}

/** Inferred: shops name a paid order "PAID"/"paid"/"ÖDENDİ" and a shipped one "SHIPPED"/"DELIVERED"/"KARGO…". */
export function isEligible(order: Order, when: InvoiceJobSettings["invoiceWhen"]): boolean {
  if (/cancel|iptal|refund|iade/i.test(order.status)) return false;
  if (when === "all") return true;
  if (when === "paid") return /paid|ödendi|odendi|success|captured/i.test(order.paymentStatus ?? "");
  return /ship|deliver|kargo|teslim|fulfill/i.test(order.status);
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
    sent: 0,
    adopted: 0,
    failed: 0,
    transient: 0,
    refreshed: 0,
    attached: 0,
  };
  await prepare(input, report);
  await send(input, report);
  await refresh(input, report);
  if (input.shop) await attach(input, input.shop, report);
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
        notExists(
          db
            .select({ one: sql`1` })
            .from(einvoices)
            .where(
              and(
                eq(einvoices.companyId, companyId),
                eq(einvoices.shopConnectionId, shopConnectionId),
                eq(einvoices.orderNo, orderLedger.orderNo),
              ),
            ),
        ),
      ),
    )
    .orderBy(asc(orderLedger.orderDate))
    .limit(input.limit ?? 500);
  if (orders.length === 0) return;
  const directory = input.directory ?? input.provider;
  for (const row of orders) {
    const order = row.payload as Order;
    if (!isEligible(order, input.settings.invoiceWhen)) continue;
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
    const at = now();
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
}

async function send(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId, provider } = input;
  const now = input.now ?? (() => new Date());
  const leaseMs = input.leaseMs ?? 60_000;
  const seller = await sellerFromCompany(db, companyId);
  const rows = await db
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
        eq(einvoices.state, "prepared"),
        or(eq(einvoices.sendAttempts, 0), lt(einvoices.updatedAt, new Date(now().getTime() - leaseMs))),
      ),
    )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
  for (const { invoice, payload } of rows) {
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
      const order = payload as Order;
      const { xml } = buildUblInvoice(order, seller, {
        profile: invoice.profile,
        type: "SATIS",
        number: invoice.number,
        uuid: invoice.ettn,
        issueDate: invoice.issueDate,
      });
      const sent = await sendOnce(provider, {
        ettn: invoice.ettn,
        xml,
        draft: input.settings.draft,
        scenario: invoice.profile === "EARSIVFATURA" ? "eArchive" : "eInvoice",
        localId: invoice.orderNo,
      });
      await setState(db, invoice.id, sent.status, undefined, undefined, now());
      if (sent.existed) report.adopted++;
      else report.sent++;
    } catch (error) {
      if (error instanceof ConnectorError && (error.kind === "transient" || error.maybeApplied)) {
        // Stays `prepared` with its attempt counted: the next pass looks the ETTN up before resending.
        report.transient++;
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

async function refresh(input: InvoiceCycleInput, report: InvoiceCycleReport) {
  const { db, companyId, shopConnectionId, provider } = input;
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
        eq(einvoices.companyId, companyId),
        eq(einvoices.shopConnectionId, shopConnectionId),
        inArray(einvoices.state, ["queued", "sent", "approved"]),
        isNull(einvoices.attachedAt),
      ),
    )
    .orderBy(asc(einvoices.id))
    .limit(input.limit ?? 500);
  for (const row of rows) {
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
          ...(input.pdfLink ? { url: input.pdfLink(row.id) } : {}),
        },
      });
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
