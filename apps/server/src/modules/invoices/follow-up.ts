import { ConnectorError, type EInvoiceProvider, type ShopConnector } from "@ep/connectors";
import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { InvoiceCycleInput, InvoiceCycleReport } from "./cycle-types.ts";
import { attachmentOf, salesPage } from "./feedback.ts";
import { type EInvoiceState, einvoices } from "./schema.ts";
import { setState } from "./send.ts";

const PENDING: EInvoiceState[] = ["draft", "queued", "sent"];

/** Step 3: pending invoices are asked for their GİB status, fifty ETTNs a question. */
export async function refresh(
  input: InvoiceCycleInput,
  provider: EInvoiceProvider,
  report: InvoiceCycleReport,
) {
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

/** Step 4: the number and the customer link go to the shop order (sale invoices only). */
export async function attach(input: InvoiceCycleInput, shop: ShopConnector, report: InvoiceCycleReport) {
  const { db } = input;
  const now = input.now ?? (() => new Date());
  const rows = await salesPage(
    input,
    and(inArray(einvoices.state, ["queued", "sent", "approved"]), isNull(einvoices.attachedAt)),
  );
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
