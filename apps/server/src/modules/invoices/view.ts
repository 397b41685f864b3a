import { message } from "@ep/contracts";
import { renderInvoiceHtml, renderInvoicePdf } from "@ep/einvoice";
import { and, eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { buildFor, invoicesWithOrders } from "./documents.ts";
import { einvoices } from "./schema.ts";
import { sellerFromCompany } from "./seller.ts";

type Invoice = Pick<typeof einvoices.$inferSelect, "id" | "companyId" | "number" | "state" | "ubl">;

/**
 * The invoice's UBL-TR document: as it was sent or generated (kept since migration 0048), else rebuilt from
 * the order and the company's settings the way it was built then. A prepared or refused invoice has no
 * document anyone accepted: 409.
 */
export async function invoiceXml(ctx: Pick<AppContext, "database">, invoice: Invoice): Promise<string> {
  if (invoice.state === "prepared" || invoice.state === "error")
    throw new AppError(409, "einvoices.documentNotOut");
  if (invoice.ubl) return invoice.ubl;
  const db = ctx.database.db;
  const [row] = await invoicesWithOrders(
    db,
    and(eq(einvoices.id, invoice.id), eq(einvoices.companyId, invoice.companyId)),
  );
  if (!row) throw new AppError(404, "einvoices.notFound");
  return buildFor(row, await sellerFromCompany(db, invoice.companyId)).xml;
}

/** The invoice as a person reads it (GİB's standard display), with a link to its PDF. */
export async function invoiceHtml(
  ctx: Pick<AppContext, "database">,
  invoice: Invoice,
  pdfUrl: string,
): Promise<string> {
  const html = renderInvoiceHtml(await invoiceXml(ctx, invoice));
  // The customer's copy: a link to the same invoice as PDF, at the end of GİB's display.
  const link = `<p class="pdf-link" style="text-align:center;margin:24px 0"><a href="${escapeAttribute(pdfUrl)}" download="${escapeAttribute(invoice.number)}.pdf">${escapeAttribute(message("einvoices.pdfDownload"))}</a></p>`;
  return html.includes("</body>") ? html.replace("</body>", `${link}</body>`) : `${html}${link}`;
}

const escapeAttribute = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export async function invoicePdf(ctx: Pick<AppContext, "database">, invoice: Invoice) {
  const bytes = await renderInvoicePdf(await invoiceXml(ctx, invoice));
  return { bytes: Buffer.from(bytes), name: `${invoice.number}.pdf` };
}
