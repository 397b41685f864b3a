import { CANCELLED_STATUS, isReturned, type Order, statusSays } from "@ep/connectors";
import type { InvoiceJobSettings } from "./cycle-types.ts";

/** A shop order that was cancelled or returned (the connectors' status words, as order transfer reads them). */
export { isReturned };

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
