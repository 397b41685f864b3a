import { CANCELLED_STATUS, type Order, statusSays } from "@ep/connectors";
import type { InvoiceJobSettings } from "./cycle-types.ts";

const RETURNED = /cancel|iptal|refund|iade|return/i;

/** A shop order that was cancelled or returned (inferred from the shops' status words, like isEligible). */
export function isReturned(order: Order): boolean {
  return statusSays(RETURNED, order.status) || statusSays(RETURNED, order.paymentStatus);
}

/** Inferred: shops name a paid order "PAID"/"paid"/"ÖDENDİ" and a shipped one "SHIPPED"/"DELIVERED"/"KARGO…". */
export function isEligible(order: Order, when: InvoiceJobSettings["invoiceWhen"]): boolean {
  if (statusSays(CANCELLED_STATUS, order.status)) return false;
  if (when === "all") return true;
  if (when === "paid") return statusSays(/paid|ödendi|odendi|success|captured/i, order.paymentStatus);
  return statusSays(/ship|deliver|kargo|teslim|fulfill/i, order.status);
}
