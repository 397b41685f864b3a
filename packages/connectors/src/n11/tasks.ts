/**
 * n11's product tasks (`POST /ms/product/tasks/*`): one task carries at most 1,000 SKUs by stock code,
 * n11 answers with a task id (`IN_QUEUE`) or refuses the whole task (`REJECT`, inside HTTP 200), and each
 * SKU's outcome is read back from `task-details/page-query` once the task is `PROCESSED` (SUCCESS, or
 * FAIL with n11's reasons). Stock/price updates and product creates share this; only the path differs.
 */

import { type AsyncItemOutcome, asyncBatchResult, pollBatchResults } from "../sdk/async-batch";
import { type BatchResult, ConnectorError } from "../sdk/errors";
import { chunk } from "../sdk/util";
import type { N11Client, Row } from "./client";
import { N11_BATCH, N11_TASK_PAGE } from "./descriptor";

const TASK_DONE = new Set(["PROCESSED", "REJECT"]);

export interface N11Task {
  path: string;
  /** The call's name (n11's service name) and the name results are reported under. */
  call: string;
  operation: string;
  /** Absolute writes may go twice after a lost answer; a create may not (n11 would refuse the code as used). */
  idempotent: boolean;
}

export function reasons(r: Row | undefined): string[] {
  return Array.isArray(r?.reasons) ? (r.reasons as unknown[]).map(String) : [];
}

/** A SKU refused with n11's words (`validation`: sending it again as it is changes nothing). */
export function refusedSku(
  operation: string,
  key: string,
  why: string,
): { key: string; error: ConnectorError } {
  return {
    key,
    error: new ConnectorError(`n11 ${operation}: item refused`, {
      reason: "validation",
      system: "n11",
      operation,
      itemKeys: [key],
      systemMessage: why,
    }),
  };
}

/**
 * Sends the SKUs in tasks of `size` (every task first), then reads their results together in rounds
 * (`ctx.asyncBatch`): applied, refused with n11's reasons, or not settled yet (transient).
 */
export async function runN11Tasks(
  client: N11Client,
  task: N11Task,
  skus: Array<Row & { stockCode: string }>,
  size = N11_BATCH,
): Promise<BatchResult> {
  const result: BatchResult = { applied: 0, failed: [], calls: 0 };
  const sent: Array<{ id: string; codes: string[] }> = [];
  for (const part of chunk(skus, size)) {
    const answer = (await client.send(
      "POST",
      task.path,
      task.call,
      { payload: { integrator: client.integrator, skus: part } },
      { idempotent: task.idempotent },
    )) as Row;
    result.calls++;
    const codes = part.map((s) => s.stockCode);
    if (answer?.status === "REJECT" || answer?.id === undefined || answer?.id === null) {
      const why = reasons(answer).join("; ") || "n11 görevi reddetti (REJECT)";
      for (const key of codes) result.failed.push(refusedSku(task.operation, key, why));
      continue;
    }
    sent.push({ id: String(answer.id), codes });
  }
  const { answers, reads } = await pollBatchResults(
    sent.map((t) => t.id),
    (id) => readTask(client, id),
    (t) => TASK_DONE.has(String(t.status)),
    client.ctx.asyncBatch,
  );
  const outcomes: AsyncItemOutcome[] = sent.flatMap(({ id, codes }) => {
    const t = answers.get(id) ?? {};
    const bySku = new Map((t.items as Row[] | undefined)?.map((i) => [String(i.itemCode), i] as const) ?? []);
    return codes.map((key): AsyncItemOutcome => {
      if (!TASK_DONE.has(String(t.status))) return { key, state: "pending" };
      const item = bySku.get(key);
      if (t.status === "REJECT") return { key, state: "failed", message: reasons(t).join("; ") || "REJECT" };
      if (String(item?.status).toUpperCase() === "SUCCESS") return { key, state: "applied" };
      if (item) return { key, state: "failed", message: reasons(item).join("; ") || String(item.status) };
      return { key, state: "pending" };
    });
  });
  const read = asyncBatchResult("n11", task.operation, outcomes, reads);
  result.applied += read.applied;
  result.failed.push(...read.failed);
  result.calls += read.calls;
  return result;
}

/** The task's status and every SKU line (pages of up to 1,000, so one page for a full task). */
async function readTask(client: N11Client, taskId: string): Promise<Row> {
  const items: Row[] = [];
  let status = "";
  let taskReasons: unknown;
  for (let page = 0; ; page++) {
    const body = (await client.send(
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
