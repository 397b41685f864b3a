import type { AppContext } from "../../platform/context.ts";

/**
 * The link the shop order carries and the merchant can copy: the invoice as a page (with its PDF), for the
 * customer without a session. Unguessable and scoped: an HMAC of the company, the invoice id and its ETTN,
 * so no other invoice (of this company or another) opens with it. It does not expire: the order page keeps it.
 */
export function customerLink(
  ctx: Pick<AppContext, "config" | "tokens">,
  invoice: { id: number; companyId: number; ettn: string },
  format: "page" | "pdf" = "page",
): string {
  const token = ctx.tokens.linkSignature(customerLinkSubject(invoice));
  const path = format === "pdf" ? `${invoice.id}/pdf` : String(invoice.id);
  return `${ctx.config.publicUrl.replace(/\/$/, "")}/api/public/invoices/${path}?t=${token}`;
}

export const customerLinkSubject = (invoice: { id: number; companyId: number; ettn: string }) =>
  `invoice:${invoice.companyId}:${invoice.id}:${invoice.ettn}`;
