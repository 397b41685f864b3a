/**
 * Stock and prices to n11: one product task (`POST /ms/product/tasks/price-stock-update`) carries at most
 * 1,000 SKUs by stock code, stock or price or both; n11 answers with a task id (`IN_QUEUE`) or refuses the
 * whole task (`REJECT`, inside HTTP 200), and each SKU's outcome is read back from
 * `task-details/page-query` once the task is `PROCESSED` (SUCCESS, or FAIL with n11's reasons). A price
 * goes as listPrice and salePrice together, two decimals at most, listPrice never below salePrice.
 */

import { type AsyncItemOutcome, asyncBatchResult, pollBatchResults } from "../sdk/async-batch";
import type { PriceUpdate, StockUpdate } from "../sdk/connector";
import { type BatchResult, ConnectorError } from "../sdk/errors";
import { chunk, round2 } from "../sdk/util";
import type { N11Client, Row } from "./client";
import { N11_BATCH, N11_TASK_PAGE } from "./descriptor";

type Sku = {
  stockCode: string;
  quantity?: number;
  listPrice?: number;
  salePrice?: number;
  currencyType?: string;
};

const TASK_DONE = new Set(["PROCESSED", "REJECT"]);

export class N11StockPrices {
  constructor(private readonly client: N11Client) {}

  setStock(items: StockUpdate[]): Promise<BatchResult> {
    return this.write(items, "setStock", (u) => ({
      stockCode: u.sku,
      quantity: Math.max(0, Math.floor(u.qty)),
    }));
  }

  setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    // Both prices in every price change ("birlikte gönderilmelidir"); no list price → the sale price.
    return this.write(items, "setPrices", (u) => {
      const sale = round2(u.amount);
      return {
        stockCode: u.sku,
        listPrice: round2(Math.max(u.listAmount ?? sale, sale)),
        salePrice: sale,
        currencyType: "TL",
      };
    });
  }

  private async write<U extends { sku: string }>(
    updates: U[],
    operation: string,
    toSku: (u: U) => Sku,
  ): Promise<BatchResult> {
    const result: BatchResult = { applied: 0, failed: [], calls: 0 };
    // Every task goes out first; their results are read together afterwards (one wait per run).
    const tasks: Array<{ id: string; codes: string[] }> = [];
    for (const part of chunk(updates.map(toSku), this.client.ctx.batch?.stock ?? N11_BATCH)) {
      const answer = (await this.client.send(
        "POST",
        "/ms/product/tasks/price-stock-update",
        "updateProductPriceAndStock",
        { payload: { integrator: this.client.integrator, skus: part } },
        // Absolute values: sending the same task twice leaves n11 where one send would.
        { idempotent: true },
      )) as Row;
      result.calls++;
      const codes = part.map((s) => s.stockCode);
      if (answer?.status === "REJECT" || answer?.id === undefined || answer?.id === null) {
        const why = reasons(answer).join("; ") || "n11 görevi reddetti (REJECT)";
        for (const key of codes)
          result.failed.push({
            key,
            error: new ConnectorError(`n11 ${operation}: task rejected`, {
              reason: "validation",
              system: "n11",
              operation,
              itemKeys: [key],
              systemMessage: why,
            }),
          });
        continue;
      }
      tasks.push({ id: String(answer.id), codes });
    }
    const { answers, reads } = await pollBatchResults(
      tasks.map((t) => t.id),
      (id) => this.readTask(id),
      (t) => TASK_DONE.has(String(t.status)),
      this.client.ctx.asyncBatch,
    );
    const outcomes: AsyncItemOutcome[] = tasks.flatMap(({ id, codes }) => {
      const task = answers.get(id) ?? {};
      const bySku = new Map(
        (task.items as Row[] | undefined)?.map((i) => [String(i.itemCode), i] as const) ?? [],
      );
      return codes.map((key): AsyncItemOutcome => {
        if (!TASK_DONE.has(String(task.status))) return { key, state: "pending" };
        const item = bySku.get(key);
        if (task.status === "REJECT")
          return { key, state: "failed", message: reasons(task).join("; ") || "REJECT" };
        if (String(item?.status).toUpperCase() === "SUCCESS") return { key, state: "applied" };
        if (item) return { key, state: "failed", message: reasons(item).join("; ") || String(item.status) };
        return { key, state: "pending" };
      });
    });
    const read = asyncBatchResult("n11", operation, outcomes, reads);
    result.applied += read.applied;
    result.failed.push(...read.failed);
    result.calls += read.calls;
    return result;
  }

  /** The task's status and every SKU line (pages of up to 1,000, so one page for a full task). */
  private async readTask(taskId: string): Promise<Row> {
    const items: Row[] = [];
    let status = "";
    let taskReasons: unknown;
    for (let page = 0; ; page++) {
      const body = (await this.client.send(
        "POST",
        "/ms/product/task-details/page-query",
        "getTaskDetails",
        { taskId: Number(taskId), pageable: { page, size: N11_TASK_PAGE } },
        { read: true },
      )) as Row;
      status = String(body?.status ?? "");
      taskReasons = body?.reasons;
      const skus = (body?.skus ?? {}) as Row;
      const content = Array.isArray(skus.content) ? (skus.content as Row[]) : [];
      items.push(...content);
      if (!TASK_DONE.has(status) || content.length === 0 || page + 1 >= Number(skus.totalPages ?? 0)) break;
    }
    return { status, items, reasons: taskReasons };
  }
}

function reasons(r: Row | undefined): string[] {
  return Array.isArray(r?.reasons) ? (r.reasons as unknown[]).map(String) : [];
}
