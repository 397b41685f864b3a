import { integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { companies } from "../../platform/db/schema.ts";

/**
 * Manual links between a shop variant and an ERP item whose codes differ. Each one is also written
 * as the engine's variant binding (sync ledger), which is what the sync runs read.
 */
export const erpMatchings = pgTable(
  "erp_matchings",
  {
    id: serial("id").primaryKey(),
    companyId: integer("company_id")
      .notNull()
      .references(() => companies.id, { onDelete: "cascade" }),
    erpSku: text("erp_sku").notNull(),
    shopSku: text("shop_sku").notNull(),
    shopProductId: text("shop_product_id").notNull(),
    shopVariantId: text("shop_variant_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("erp_matchings_company_erp_uq").on(t.companyId, t.erpSku),
    uniqueIndex("erp_matchings_company_shop_uq").on(t.companyId, t.shopSku),
  ],
);
