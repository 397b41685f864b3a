/**
 * Returns from Trendyol's claims (İade Entegrasyonu, getClaims): a customer's return the seller accepted
 * comes back as its package's order in "Returned", with only the returned lines, so order transfer records
 * it once (even when the package's own status in the stream never changes: a return of one line of many).
 *
 * Sources: developers.trendyol.com `tr/reference/getclaims` (GET …/order/sellers/{id}/claims; startDate /
 * endDate int64 ms on the claim's creation, page from 0, size ≤ 200, claimItemStatus, orderNumber,
 * claimIds) and `docs/i̇ade-entegrasyonu` (statuses Created, WaitingInAction, Accepted, Cancelled, Rejected,
 * Unresolved, InAnalysis; claimDate in ms GMT), read beside a public client that shows a live answer
 * (`content[].{claimId, orderNumber, orderShipmentPackageId, claimDate, items[].{orderLine.{id, barcode,
 * merchantSku, productName}, claimItems[].{id, claimItemStatus.name}}}`). Inferred: one claim item per
 * unit returned, and 14-day windows (that client reads 13-day ones); claims accepted up to 28 days after
 * they were made are caught by reading that far back each run (the ledger keeps each return once).
 */

import type { Order, Page } from "../sdk/model";
import { encodeToken } from "../sdk/util";
import { type Row, rows, type TrendyolClient } from "./client";
import { TRENDYOL_STREAM_RANGE_MS } from "./descriptor";

/** How far back claims are read: a claim made then may be accepted only now. */
export const CLAIM_LOOKBACK_MS = 28 * 86_400_000;
const CLAIM_PAGE = 200;

export interface ClaimsToken {
  phase: "claims";
  from: number;
  to: number;
  until: number;
  page: number;
  /** The stream's cursor, answered when the claims are read. */
  after: string;
}

const text = (v: unknown) => (v === undefined || v === null ? "" : String(v));

/** The first page token of the claims read that follows a stream read ending at `streamFrom`. */
export function claimsStart(streamFrom: number, until: number, after: string): string {
  const from = Math.max(0, streamFrom - CLAIM_LOOKBACK_MS);
  const token: ClaimsToken = {
    phase: "claims",
    from,
    to: Math.min(from + TRENDYOL_STREAM_RANGE_MS, until),
    until,
    page: 0,
    after,
  };
  return encodeToken(token);
}

/** An accepted claim as its package in "Returned" (a package row), holding the returned lines only. */
export function returnOfClaim(c: Row): Row | undefined {
  const packageId = text(c.orderShipmentPackageId);
  if (!packageId) return undefined;
  const lines = rows(c.items).flatMap((item) => {
    const accepted = rows(item.claimItems).filter(
      (ci) => text((ci.claimItemStatus as Row | undefined)?.name) === "Accepted",
    ).length;
    const line = (item.orderLine ?? {}) as Row;
    return accepted > 0 ? [{ ...line, quantity: accepted }] : [];
  });
  if (lines.length === 0) return undefined;
  const when = c.lastModifiedDate ?? c.claimDate;
  return {
    id: packageId,
    orderNumber: c.orderNumber,
    orderDate: c.orderDate ?? c.claimDate,
    lastModifiedDate: when,
    status: "Returned",
    lines,
  };
}

/** One page of accepted claims as orders (`toOrder`: the stream's package mapping); the last page answers the stream's cursor. */
export async function listTrendyolReturns(
  client: TrendyolClient,
  t: ClaimsToken,
  toOrder: (pkg: Row) => Order,
): Promise<Page<Order>> {
  const body = (await client.get(client.seller("order", "/claims"), "getClaims", {
    startDate: String(t.from),
    endDate: String(t.to),
    page: String(t.page),
    size: String(CLAIM_PAGE),
    claimItemStatus: "Accepted",
  })) as Row;
  const items = rows(body?.content).flatMap((c) => {
    const pkg = returnOfClaim(c);
    return pkg ? [toOrder(pkg)] : [];
  });
  if (t.page + 1 < Number(body?.totalPages ?? 0))
    return { items, nextPageToken: encodeToken({ ...t, page: t.page + 1 } satisfies ClaimsToken) };
  if (t.to < t.until) {
    const to = Math.min(t.to + TRENDYOL_STREAM_RANGE_MS, t.until);
    return { items, nextPageToken: encodeToken({ ...t, from: t.to, to, page: 0 } satisfies ClaimsToken) };
  }
  return { items, cursor: t.after };
}
