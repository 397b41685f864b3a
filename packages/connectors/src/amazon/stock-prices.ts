/**
 * Stock and prices to Amazon through JSON_LISTINGS_FEED (the XML feeds such as
 * POST_INVENTORY_AVAILABILITY_DATA were removed on 31 July 2025): one PATCH message per SKU, at most
 * 25,000 messages a feed. Per feed: createFeedDocument → PUT the document to its presigned URL → createFeed;
 * then every feed is polled with getFeed until DONE / FATAL / CANCELLED, and its processing report
 * (getFeedDocument → download) says which messages were refused and why. createFeed waits for both its
 * usage plan and the feed type's five per five minutes (client.ts).
 */

import { message } from "@ep/contracts";
import {
  type AsyncBatchPolicy,
  type AsyncItemOutcome,
  asyncBatchResult,
  pollBatchResults,
} from "../sdk/async-batch";
import type { PriceUpdate, StockUpdate } from "../sdk/connector";
import { type BatchResult, ConnectorError } from "../sdk/errors";
import { chunk, round2 } from "../sdk/util";
import type { AmazonCatalog } from "./catalog";
import type { AmazonClient, Row } from "./client";
import { AMAZON_FEED_MESSAGES } from "./descriptor";

/** Amazon processes a listings feed in minutes: read its status every 30 s, for up to 15 minutes. */
export const AMAZON_FEED_POLL: AsyncBatchPolicy = { intervalMs: 30_000, maxPolls: 30 };
export const FEED_CONTENT_TYPE = "application/json; charset=UTF-8";
const FINISHED = new Set(["DONE", "FATAL", "CANCELLED"]);

type Patch = { op: "merge" | "replace"; path: string; value: Row[] };
interface Message {
  messageId: number;
  sku: string;
  operationType: "PATCH";
  productType: string;
  patches: Patch[];
}

export class AmazonStockPrices {
  constructor(
    private readonly client: AmazonClient,
    private readonly catalog: AmazonCatalog,
  ) {}

  /** Quantity for the seller's own fulfilment ("DEFAULT" channel); `merge` keeps lead times as they are. */
  setStock(items: StockUpdate[]): Promise<BatchResult> {
    return this.write(items, "setStock", (u) => [
      {
        op: "merge",
        path: "/attributes/fulfillment_availability",
        value: [{ fulfillment_channel_code: "DEFAULT", quantity: Math.max(0, Math.floor(u.qty)) }],
      },
    ]);
  }

  /** The offer's price for Amazon.com.tr, VAT included (`our_price` schedule `value_with_tax`). */
  setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    return this.write(items, "setPrices", (u) => [
      {
        op: "replace",
        path: "/attributes/purchasable_offer",
        value: [
          {
            marketplace_id: this.client.marketplaceId,
            currency: u.currency || "TRY",
            our_price: [{ schedule: [{ value_with_tax: round2(u.amount) }] }],
          },
        ],
      },
    ]);
  }

  private async write<U extends { sku: string; variantId?: string }>(
    updates: U[],
    operation: string,
    patches: (u: U) => Patch[],
  ): Promise<BatchResult> {
    const need = updates.filter((u) => !u.variantId).map((u) => u.sku);
    const lookupsBefore = this.catalog.lookups;
    const refs = need.length > 0 ? await this.catalog.findProductsBySku(need) : new Map();
    const result: BatchResult = { applied: 0, failed: [], calls: this.catalog.lookups - lookupsBefore };
    const messages: Message[] = [];
    for (const u of updates) {
      const productType = u.variantId || refs.get(u.sku)?.variantId;
      if (!productType) {
        result.failed.push({
          key: u.sku,
          error: new ConnectorError(`amazon ${operation}: no Amazon listing with this SKU`, {
            reason: "unknown_item",
            system: "amazon",
            operation,
            itemKeys: [u.sku],
            merchantMessage: message("connectors.amazonListingUnknown", { sku: u.sku }),
          }),
        });
        continue;
      }
      messages.push({ messageId: 0, sku: u.sku, operationType: "PATCH", productType, patches: patches(u) });
    }
    if (messages.length === 0) return result;

    // Every feed goes out first; their reports are read together afterwards (one wait per run).
    const size = Math.min(this.client.ctx.batch?.stock ?? AMAZON_FEED_MESSAGES, AMAZON_FEED_MESSAGES);
    const feeds: Array<{ id: string; messages: Message[] }> = [];
    for (const part of chunk(messages, size)) {
      const numbered = part.map((m, i) => ({ ...m, messageId: i + 1 }));
      feeds.push({ id: await this.submit(numbered), messages: numbered });
      result.calls += 3;
    }
    const { answers, reads } = await pollBatchResults(
      feeds.map((f) => f.id),
      (id) => this.client.get("getFeed", `/feeds/2021-06-30/feeds/${encodeURIComponent(id)}`),
      (feed) => FINISHED.has(String(feed.processingStatus)),
      this.client.ctx.asyncBatch ?? AMAZON_FEED_POLL,
    );
    result.calls += reads;
    const outcomes: AsyncItemOutcome[] = [];
    for (const feed of feeds) {
      const answer = answers.get(feed.id) ?? {};
      const status = String(answer.processingStatus ?? "");
      if (!FINISHED.has(status) || status === "CANCELLED") {
        for (const m of feed.messages) outcomes.push({ key: m.sku, state: "pending" });
        continue;
      }
      const report = answer.resultFeedDocumentId
        ? await this.report(String(answer.resultFeedDocumentId))
        : {};
      if (answer.resultFeedDocumentId) result.calls += 2;
      const errors = new Map<number, string[]>();
      let feedLevel: string | undefined;
      for (const issue of (Array.isArray(report.issues) ? report.issues : []) as Row[]) {
        if (issue.severity !== "ERROR") continue;
        if (typeof issue.messageId !== "number") {
          feedLevel = String(issue.message ?? issue.code ?? "");
          continue;
        }
        const list = errors.get(issue.messageId) ?? [];
        list.push(`${String(issue.code ?? "")} ${String(issue.message ?? "")}`.trim());
        errors.set(issue.messageId, list);
      }
      for (const m of feed.messages) {
        const own = errors.get(m.messageId);
        if (own) outcomes.push({ key: m.sku, state: "failed", message: own.join("; ") });
        else if (status === "FATAL")
          outcomes.push({
            key: m.sku,
            state: "failed",
            message: feedLevel || "FATAL: Amazon did not process the feed",
          });
        else outcomes.push({ key: m.sku, state: "applied" });
      }
    }
    const read = asyncBatchResult("amazon", operation, outcomes, 0);
    result.applied += read.applied;
    // The merchant reads Amazon's own words (refused) or that the next run sends it again (not processed).
    result.failed.push(
      ...read.failed.map((f) => ({
        ...f,
        error: f.error.with({
          merchantMessage:
            f.error.reason === "validation"
              ? message("connectors.amazonFeedRefused", { sku: f.key, reason: f.error.systemMessage ?? "" })
              : message("connectors.amazonFeedPending", { sku: f.key }),
        }),
      })),
    );
    return result;
  }

  /** createFeedDocument → upload → createFeed; the feed id. */
  private async submit(messages: Message[]): Promise<string> {
    const doc = {
      header: { sellerId: this.client.sellerId, version: "2.0", issueLocale: "tr_TR" },
      messages,
    };
    const created = (
      await this.client.call("createFeedDocument", "POST", "/feeds/2021-06-30/documents", {
        json: { contentType: FEED_CONTENT_TYPE },
        idempotent: true,
      })
    ).json as Row;
    await this.client.upload(String(created.url), JSON.stringify(doc), FEED_CONTENT_TYPE);
    // Absolute values: a second feed after a lost answer sets the same quantities again.
    const feed = await this.client.createListingsFeed({
      feedType: "JSON_LISTINGS_FEED",
      marketplaceIds: [this.client.marketplaceId],
      inputFeedDocumentId: String(created.feedDocumentId),
    });
    return String(feed.feedId);
  }

  private async report(documentId: string): Promise<Row> {
    const d = await this.client.get(
      "getFeedDocument",
      `/feeds/2021-06-30/documents/${encodeURIComponent(documentId)}`,
    );
    const text = await this.client.download(String(d.url), d.compressionAlgorithm as string | undefined);
    try {
      return JSON.parse(text) as Row;
    } catch {
      throw new ConnectorError("amazon: the processing report is not JSON", {
        reason: "bad_response",
        system: "amazon",
        operation: "getFeedDocument",
        systemMessage: text.slice(0, 200),
      });
    }
  }
}
