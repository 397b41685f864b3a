import { engineSchema } from "@ep/engine";
import { and, eq, notExists, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { einvoices } from "./schema.ts";

const { orderLedger } = engineSchema;

/** The ledger's order has no invoice of ours yet (the order ledger in the outer query). */
export function notInvoiced(db: Db, companyId: number) {
  return notExists(
    db
      .select({ one: sql`1` })
      .from(einvoices)
      .where(
        and(
          eq(einvoices.companyId, companyId),
          eq(einvoices.shopConnectionId, orderLedger.shopConnectionId),
          eq(einvoices.orderNo, orderLedger.orderNo),
        ),
      ),
  );
}
