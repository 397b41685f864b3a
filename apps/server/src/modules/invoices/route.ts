import { isEInvoiceType, isFileInvoiceType } from "@ep/connectors";
import type { InvoiceRoute } from "@ep/contracts";
import type { Db } from "../../platform/db/database.ts";
import { type ConnectionRow, findConnection } from "../connections/repository.ts";

/** A system that can issue a company's invoices: an e-invoice service, or a portal fed with files. */
export function issuesInvoices(systemType: number): boolean {
  return isEInvoiceType(systemType) || isFileInvoiceType(systemType);
}

/**
 * Who issues a company's invoices, and through which connection:
 * - its e-invoice service connection (settings' third connection), when it has one;
 * - otherwise its "ERP" when that is itself an e-invoice service or portal (a company registered with
 *   Uyumsoft, Trendyol e-Faturam or LucaPortal keeps working as before, nothing to migrate);
 * - otherwise the ERP issues them and the invoice job moves the ERP's invoices to the shop.
 */
export async function invoiceRouteOf(
  db: Db,
  companyId: number,
): Promise<{ route: InvoiceRoute; connection: ConnectionRow | undefined }> {
  const service = await findConnection(db, companyId, "einvoice");
  if (service) return { route: "service", connection: service };
  const erp = await findConnection(db, companyId, "erp");
  if (erp && issuesInvoices(erp.systemType)) return { route: "erpService", connection: erp };
  return { route: "erp", connection: undefined };
}
