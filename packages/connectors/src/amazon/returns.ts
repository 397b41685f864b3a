/**
 * Amazon returns (issue 37): the SP-API has no returns operation; a seller's returns come only as a report.
 * Each order scan ends with one returns report over the scan's window (Reports API 2021-06-30: createReport
 * `GET_FLAT_FILE_RETURNS_DATA_BY_RETURN_DATE`, getReport polled a few times, getReportDocument and the
 * presigned, maybe gzip, document), read with csv-parse as the tab-delimited file it is. A report still
 * being made when the polls run out is carried in the scan's cursor and polled by the next run instead of
 * requesting another: at most one createReport a run (its plan: 0.0167/s, burst 15). Every returned line is
 * a row (order, SKU, quantity, RMA), so a return of some units of one line comes back as exactly that.
 * Facts and sources: judge/returns-report.ts, VERIFIED.md "Returns".
 */

import { parse } from "csv-parse/sync";
import type { ReturnedLine } from "../sdk/model";
import { sleep } from "../sdk/rate-limit";
import type { AmazonClient, Row } from "./client";
import {
  AMAZON_RETURNS_COLUMNS,
  AMAZON_RETURNS_REPORT_MAX_DAYS,
  AMAZON_RETURNS_REPORT_TYPE,
} from "./judge/returns-report";

const DAY_MS = 86_400_000;
/** Return requests this far back are read again each run: one approved late is caught (recorded once). */
export const AMAZON_RETURNS_LOOKBACK_MS = 14 * DAY_MS;
/** getReport polls within one run before the report is left for the next (Amazon: minutes to make one). */
const POLLS = 5;

/** One row of the report, as far as a return is concerned. */
export interface AmazonReturnRow {
  orderId: string;
  line: ReturnedLine;
}

const text = (v: unknown) => (v === undefined || v === null ? "" : String(v).trim());
/**
 * Requests that did not (yet) bring goods back. Inferred: the status words are not listed by Amazon's page;
 * anything else (Approved, Authorized, Closed, Completed…) counts.
 */
const NOT_RETURNED = /pending|reject|denied|cancel/i;

/** The report's rows as returns: one line each, keyed by Amazon's RMA and the SKU. */
export function parseAmazonReturns(document: string): AmazonReturnRow[] {
  const records = parse(document, {
    columns: true,
    delimiter: "\t",
    // Amazon's flat files do not quote: a '"' in an item name is text.
    quote: false,
    bom: true,
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
  }) as Record<string, string>[];
  const [orderCol, , dateCol, statusCol, rmaCol, , , , , , , , , , , skuCol, , qtyCol] =
    AMAZON_RETURNS_COLUMNS;
  return records.flatMap((r) => {
    const orderId = text(r[orderCol]);
    const sku = text(r[skuCol]);
    const qty = Number(text(r[qtyCol]));
    if (!orderId || !sku || !(qty > 0) || NOT_RETURNED.test(text(r[statusCol]))) return [];
    const rma = text(r[rmaCol]);
    return [
      {
        orderId,
        line: { ref: rma ? `rma:${rma}:${sku}` : `${orderId}:${sku}:${text(r[dateCol])}`, sku, qty },
      },
    ];
  });
}

/** The window a run's report covers: the scan's, reaching back the lookback, at most 60 days. */
export function returnsWindow(after: string, before: string): { start: string; end: string } {
  const end = Date.parse(before);
  const start = Math.max(
    Date.parse(after) - AMAZON_RETURNS_LOOKBACK_MS,
    end - AMAZON_RETURNS_REPORT_MAX_DAYS * DAY_MS,
  );
  return { start: new Date(start).toISOString(), end: before };
}

export class AmazonReturns {
  constructor(
    private readonly client: AmazonClient,
    private readonly pollMs: number,
  ) {}

  /**
   * The returns of the window: the report `pending` from an earlier run, or a new one; answers its rows, or
   * the report's id while Amazon is still making it.
   */
  async read(
    window: { start: string; end: string },
    pending?: string,
  ): Promise<{ rows: AmazonReturnRow[] } | { pending: string }> {
    const reportId = pending || (await this.request(window));
    for (let poll = 0; poll < POLLS; poll++) {
      const report = await this.client.get(
        "getReport",
        `/reports/2021-06-30/reports/${encodeURIComponent(reportId)}`,
      );
      const status = text(report.processingStatus);
      if (status === "DONE") return { rows: await this.document(text(report.reportDocumentId)) };
      // CANCELLED: no return in the window (the Reports FAQ); FATAL: none read now, the lookback reads them again.
      if (status === "CANCELLED" || status === "FATAL") return { rows: [] };
      await sleep(this.pollMs * (poll + 1));
    }
    return { pending: reportId };
  }

  private async request(window: { start: string; end: string }): Promise<string> {
    const res = await this.client.call("createReport", "POST", "/reports/2021-06-30/reports", {
      json: {
        reportType: AMAZON_RETURNS_REPORT_TYPE,
        marketplaceIds: [this.client.marketplaceId],
        dataStartTime: window.start,
        dataEndTime: window.end,
      },
    });
    return text(((res.json ?? {}) as Row).reportId);
  }

  private async document(id: string): Promise<AmazonReturnRow[]> {
    if (!id) return [];
    const doc = await this.client.get(
      "getReportDocument",
      `/reports/2021-06-30/documents/${encodeURIComponent(id)}`,
    );
    return parseAmazonReturns(
      await this.client.download(text(doc.url), text(doc.compressionAlgorithm) || undefined),
    );
  }
}
