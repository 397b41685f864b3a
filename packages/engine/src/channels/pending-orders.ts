import { CANCELLED_STATUS, statusSays } from "@ep/connectors";
import { sql } from "drizzle-orm";
import type { Executor } from "../db.ts";

const SKU_CHUNK = 1000;

/**
 * Per SKU, the units ordered on any of the company's channels and not yet written to the ERP: what the
 * stock pool must subtract from the ERP's available stock (`allocateStock`'s `pendingNotInErp`).
 *
 * Read from the order ledger, where order transfer keeps every order it ingested with the channel's
 * order (lines included) as its payload. Every state but `confirmed` counts: `received`/`mapped` are
 * waiting, `sent` may or may not have reached the ERP (counting it twice for a moment under-offers,
 * not counting it could oversell), `failed`/`needs_review` are real orders the merchant still has to
 * settle. An order its channel has since cancelled or returned (recorded once by order transfer,
 * `order-returns.ts`, or read from its status word) holds no stock; units returned line by line
 * (`order_return_lines`) leave the hold, the rest of the order keeps it. SKUs with nothing pending are absent from the map; without `skus`, every SKU pending.
 */
export async function pendingOrderQuantities(
  db: Executor,
  companyId: number,
  skus?: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  // Without SKUs: every SKU with anything pending, in one statement.
  const chunks: (string[] | undefined)[] = [];
  if (!skus) chunks.push(undefined);
  else {
    const wanted = [...new Set(skus)];
    for (let i = 0; i < wanted.length; i += SKU_CHUNK) chunks.push(wanted.slice(i, i + SKU_CHUNK));
  }
  for (const chunk of chunks) {
    // Grouped by status too, so the cancelled ones are told apart by the same words as order transfer.
    const result = await db.execute<{ sku: string; status: string | null; qty: string | number }>(sql`
      select l->>'sku' as sku, o.payload->>'status' as status,
        sum(greatest(case when jsonb_typeof(l->'qty') = 'number' then (l->>'qty')::numeric else 0 end
          - coalesce(r.qty, 0), 0)) as qty
      from order_ledger o cross join lateral jsonb_array_elements(
        case when jsonb_typeof(o.payload->'lines') = 'array' then o.payload->'lines' else '[]'::jsonb end
      ) with ordinality as e(l, n)
      left join lateral (
        select sum(x.qty)::numeric as qty from order_return_lines x where x.ledger_id = o.id and x.line_no = e.n - 1
      ) r on true
      where o.company_id = ${companyId}::integer and o.state <> 'confirmed' and o.return_kind is null
        and ${chunk ? sql`l->>'sku' = any(${sql.param(chunk)}::text[])` : sql`l->>'sku' is not null`}
      group by 1, 2`);
    for (const row of result.rows) {
      if (statusSays(CANCELLED_STATUS, row.status ?? undefined)) continue;
      const qty = Number(row.qty);
      if (qty > 0) out.set(row.sku, (out.get(row.sku) ?? 0) + qty);
    }
  }
  return out;
}
