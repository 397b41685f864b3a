import type { Order } from "@ep/connectors";
import { type MessageKey, message } from "@ep/contracts";
import { type ReturnedUnits, returnedPart } from "@ep/einvoice";
import { engineSchema } from "@ep/engine";
import { asc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";

const { orderLedger, orderReturnLines } = engineSchema;

/** A part of a sale that came back, as the Faturalar screen lists it under the sale. */
export interface ReturnedPartView {
  /** "KTP-07 × 1, KZK-01 × 1" */
  lines: string;
  /** What the part's return document carries (VAT included, its share of the order discount). */
  total: number | null;
  route: "cancel" | "iade" | "none" | null;
  why: string | null;
}

/**
 * The returned parts of sales (those decided by `routeReturns`, one per decision): their lines and the
 * amount of their return document, computed by einvoice's `returnedPart` with each line's earlier returns
 * counted first, so the parts and what stays add up to the sale.
 */
export async function returnedPartsOf(db: Db, saleIds: number[]): Promise<Map<number, ReturnedPartView[]>> {
  const out = new Map<number, ReturnedPartView[]>();
  if (saleIds.length === 0) return out;
  const rows = await db
    .select({ line: orderReturnLines, payload: orderLedger.payload })
    .from(orderReturnLines)
    .innerJoin(orderLedger, eq(orderLedger.id, orderReturnLines.ledgerId))
    .where(inArray(orderReturnLines.einvoiceId, saleIds))
    .orderBy(asc(orderReturnLines.part), asc(orderReturnLines.id));
  const before = new Map<string, number>();
  const groups = new Map<
    string,
    {
      saleId: number;
      order: Order;
      units: ReturnedUnits[];
      skus: string[];
      route: ReturnedPartView["route"];
      reason: string | null;
    }
  >();
  for (const { line, payload } of rows) {
    if (line.einvoiceId === null || line.part === null) continue;
    const at = `${line.einvoiceId}#${line.part}`;
    const group = groups.get(at) ?? {
      saleId: line.einvoiceId,
      order: payload as Order,
      units: [],
      skus: [],
      route: line.route,
      reason: line.reason,
    };
    const key = `${line.ledgerId}:${line.lineNo}`;
    group.units.push({ line: line.lineNo, qty: line.qty, before: before.get(key) ?? 0 });
    group.skus.push(`${line.sku} × ${line.qty}`);
    before.set(key, (before.get(key) ?? 0) + line.qty);
    groups.set(at, group);
  }
  for (const g of groups.values()) {
    let total: number | null = null;
    try {
      total = returnedPart(g.order, g.units).totals.grandTotal;
    } catch {
      // An order whose lines no longer read as sold (an edited payload): listed without its amount.
    }
    const list = out.get(g.saleId) ?? [];
    list.push({
      lines: g.skus.join(", "),
      total,
      route: g.route,
      why: g.reason ? message(`einvoices.returnWhy.${g.reason}` as MessageKey) : null,
    });
    out.set(g.saleId, list);
  }
  return out;
}
