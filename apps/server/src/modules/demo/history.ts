import { CITIES, FIRST_NAMES, LAST_NAMES, Prng } from "@ep/connectors";
import type { JobType } from "@ep/contracts";
import { buildReport, engineSchema } from "@ep/engine";
import { and, eq, isNull, like, notLike } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { turkishDayStart } from "../../platform/time/turkey.ts";

/** Orders of the seeded past carry this prefix (the demo shop's own orders are numbered by the shop). */
export const HISTORY_ORDER_PREFIX = "GEC-";

const HISTORY_DAYS = 90;
/** Past runs per job and day: enough for the charts and statistics, few enough to seed in a second. */
const RUNS_PER_DAY = 4;
/** The last days of the past are all successful, so a restarted demo is not shown as broken. */
const CLEAN_RECENT_DAYS = 2;
const DAY_MS = 86_400_000;

type RunsOf = { read: [number, number]; changedShare: number; erpCalls: number; shopCalls: number };

/** Rough sizes of a real 3,500-item shop's runs, per job type. */
const RUN_SHAPE: Record<JobType, RunsOf> = {
  ProductIntegration: { read: [3_400, 3_520], changedShare: 0.01, erpCalls: 8, shopCalls: 20 },
  PriceIntegration: { read: [3_400, 3_520], changedShare: 0.03, erpCalls: 6, shopCalls: 4 },
  StockIntegration: { read: [3_400, 3_520], changedShare: 0.05, erpCalls: 6, shopCalls: 6 },
  ProductUpdate: { read: [3_400, 3_520], changedShare: 0.02, erpCalls: 8, shopCalls: 12 },
  CategoryIntegration: { read: [40, 42], changedShare: 0, erpCalls: 1, shopCalls: 2 },
  OrderIntegration: { read: [0, 14], changedShare: 1, erpCalls: 2, shopCalls: 2 },
  InvoiceIntegration: { read: [0, 10], changedShare: 1, erpCalls: 2, shopCalls: 2 },
};

/** A few records a real shop's runs could not move, with what the merchant should do. */
const FAILED_TASKS: Array<{
  jobType: JobType;
  key: string;
  errorType: string;
  message: string;
  payload: unknown;
}> = [
  {
    jobType: "ProductIntegration",
    key: "GEC-STK-900101",
    errorType: "validation",
    message:
      "Barkod geçersiz: 869000000001 (13 hane olmalı). Ürün kartındaki barkodu düzeltin; bir sonraki çalışmada yeniden denenir.",
    payload: {
      sku: "GEC-STK-900101",
      name: "Seramik Kahve Kupası 350 ml",
      barcode: "869000000001",
      price: 149.9,
    },
  },
  {
    jobType: "ProductIntegration",
    key: "GEC-STK-900102",
    errorType: "validation",
    message: "Ürün adı boş. Mikro'da stok kartının adını girin.",
    payload: { sku: "GEC-STK-900102", name: "", barcode: "8690000001025", price: 89.5 },
  },
  {
    jobType: "StockIntegration",
    key: "GEC-STK-900210",
    errorType: "unknown_item",
    message:
      "Mağazada bu stok koduyla ürün yok. Önce ürün aktarımını çalıştırın ya da ERP eşleştirmesi ekleyin.",
    payload: { sku: "GEC-STK-900210", warehouse: "Merkez Depo", quantity: 12 },
  },
  {
    jobType: "PriceIntegration",
    key: "GEC-STK-900305",
    errorType: "validation",
    message: "Satış fiyatı 0 TL: fiyatı sıfır olan ürün mağazaya gönderilmez. Fiyat listesini kontrol edin.",
    payload: { sku: "GEC-STK-900305", priceList: "Perakende", price: 0, vatRate: 20 },
  },
  {
    jobType: "OrderIntegration",
    key: "GEC-2026-000412",
    errorType: "unknown_item",
    message:
      "Siparişteki GEC-STK-900777 stok kodu Mikro'da yok. Ürünü Mikro'da açın veya ERP eşleştirmesi ekleyin; sipariş sonra yeniden denenir.",
    payload: { orderNo: "GEC-2026-000412", lines: [{ sku: "GEC-STK-900777", quantity: 1, price: 349 }] },
  },
];

/**
 * The demo's past: 90 days of orders, runs and a few failed tasks, so its charts, reports and
 * failed-task screens look like a real shop's on the first visit. Seeded once; idempotent.
 */
export async function seedDemoHistory(db: Db, companyId: number, shopConnectionId: number, now: Date) {
  const { orderLedger, invoiceLedger, jobs, jobRuns, jobErrorReports } = engineSchema;
  const [seeded] = await db
    .select({ id: orderLedger.id })
    .from(orderLedger)
    .where(and(eq(orderLedger.companyId, companyId), like(orderLedger.orderNo, `${HISTORY_ORDER_PREFIX}%`)))
    .limit(1);
  if (seeded) return;
  const prng = new Prng(`demo-history-${companyId}`);
  // Whole Turkish days (UTC+3) up to yesterday: today belongs to the sandboxes' live orders and runs.
  const start = turkishDayStart(now).getTime() - HISTORY_DAYS * DAY_MS;

  await db.transaction(async (tx) => {
    const orders: (typeof orderLedger.$inferInsert)[] = [];
    let serial = 0;
    for (let day = 0; day < HISTORY_DAYS; day++) {
      const date = new Date(start + day * DAY_MS);
      // Busier weekends and a slow rise over the quarter, as a growing shop's.
      const weekend = [0, 6].includes(date.getUTCDay());
      const count = prng.int(6, 14) + (weekend ? 6 : 0) + Math.floor(day / 15);
      for (let i = 0; i < count; i++) {
        serial++;
        const orderDate = new Date(date.getTime() + prng.int(8 * 3600, 23 * 3600 + 59 * 60) * 1000);
        const orderNo = `${HISTORY_ORDER_PREFIX}2026-${String(serial).padStart(6, "0")}`;
        const city = prng.pick(CITIES);
        const total = Math.round(prng.int(120_00, 4_800_00)) / 100;
        orders.push({
          companyId,
          shopConnectionId,
          orderNo,
          shopOrderId: `gecmis-${serial}`,
          state: "confirmed",
          erpDocumentId: `SIP-${String(serial).padStart(6, "0")}`,
          orderDate,
          grandTotal: total,
          currency: "TRY",
          payload: {
            orderNo,
            customer: { firstName: prng.pick(FIRST_NAMES), lastName: prng.pick(LAST_NAMES) },
            shippingAddress: { city: city.city, district: prng.pick(city.districts) },
            grandTotal: total,
          },
          receivedAt: orderDate,
          sentAt: new Date(orderDate.getTime() + 60_000),
          confirmedAt: new Date(orderDate.getTime() + 61_000),
          updatedAt: new Date(orderDate.getTime() + 61_000),
        });
      }
    }
    for (let i = 0; i < orders.length; i += 500)
      await tx.insert(orderLedger).values(orders.slice(i, i + 500));
    // The ERP invoiced each past order and the invoice job took the invoice to the shop order: the
    // Faturalar screen lists these and the Reports page counts the same ones (invoices/count.ts).
    const d = (n: number) => prng.digits(n);
    const invoices: (typeof invoiceLedger.$inferInsert)[] = orders.map((o, index) => ({
      companyId,
      shopConnectionId,
      ettn: `${d(8)}-${d(4)}-4${d(3)}-8${d(3)}-${d(12)}`,
      orderNo: o.orderNo,
      invoiceNo: `MKR2026${String(index + 1).padStart(9, "0")}`,
      shopOrderId: o.shopOrderId,
      state: "sent",
      attachedAt: new Date(
        Math.min((o.confirmedAt as Date).getTime() + prng.int(1, 6) * 3_600_000, now.getTime() - 60_000),
      ),
    }));
    for (let i = 0; i < invoices.length; i += 500)
      await tx.insert(invoiceLedger).values(invoices.slice(i, i + 500));

    const companyJobs = await tx.select().from(jobs).where(eq(jobs.companyId, companyId));
    for (const job of companyJobs) {
      const shape = RUN_SHAPE[job.type as JobType];
      if (!shape) continue;
      const runs: (typeof jobRuns.$inferInsert)[] = [];
      for (let day = 0; day < HISTORY_DAYS; day++) {
        const clean = day >= HISTORY_DAYS - CLEAN_RECENT_DAYS;
        for (let slot = 0; slot < RUNS_PER_DAY; slot++) {
          const startedAt = new Date(
            start + day * DAY_MS + (slot * DAY_MS) / RUNS_PER_DAY + prng.int(0, 600) * 1000,
          );
          const read = prng.int(...shape.read);
          const changed = Math.round(read * shape.changedShare * prng.next() * 2);
          const outcome = clean ? 0.99 : prng.next();
          // About 1 run in 60 fails outright (a timeout at the shop), 1 in 12 leaves a record behind.
          const status = outcome < 1 / 60 ? "Failed" : outcome < 1 / 12 ? "PartiallyFailed" : "Succeeded";
          const failed = status === "PartiallyFailed" ? prng.int(1, 3) : 0;
          const written = status === "Failed" ? 0 : Math.max(0, changed - failed);
          const counts = { read, changed, written, failed };
          const calls = {
            erp: { read: shape.erpCalls, write: job.type === "OrderIntegration" ? written : 0 },
            shop: {
              read: shape.shopCalls,
              write: job.type === "OrderIntegration" ? 0 : Math.ceil(written / 50),
            },
          };
          const seconds = 4 + Math.round(read / 400) + prng.int(0, 20) + (status === "Failed" ? 30 : 0);
          const reason = status === "Failed" ? "Mağaza 30 saniye içinde yanıt vermedi (zaman aşımı)." : null;
          runs.push({
            jobId: job.id,
            companyId,
            jobType: job.type,
            jobName: job.name,
            trigger: "schedule",
            status,
            queuedAt: startedAt,
            enqueuedAt: startedAt,
            startedAt,
            finishedAt: new Date(startedAt.getTime() + seconds * 1000),
            counts,
            calls,
            report: buildReport(status, counts, calls, reason, 0, []),
            failureSide: status === "Failed" ? "shop" : null,
            failureReason: status === "Failed" ? "timeout" : null,
          });
        }
      }
      const ids: number[] = [];
      for (let i = 0; i < runs.length; i += 500) {
        const rows = await tx
          .insert(jobRuns)
          .values(runs.slice(i, i + 500))
          .returning({ id: jobRuns.id });
        ids.push(...rows.map((r) => r.id));
      }
      const last = runs[runs.length - 1]!;
      await tx
        .update(jobs)
        .set({ lastRunState: true, lastRunDate: last.finishedAt, lastSuccessAt: last.finishedAt })
        .where(and(eq(jobs.id, job.id), isNull(jobs.lastRunDate)));
      const tasks = FAILED_TASKS.filter((task) => task.jobType === job.type);
      for (const [index, task] of tasks.entries()) {
        // Each open failed task belongs to a partly failed run of its job, some days ago.
        let runIndex = runs.length - RUNS_PER_DAY * (CLEAN_RECENT_DAYS + 1 + index * 3) - 1;
        while (runIndex > 0 && runs[runIndex]!.status !== "PartiallyFailed") runIndex--;
        const createdAt = runs[runIndex]!.finishedAt as Date;
        await tx.insert(jobErrorReports).values({
          companyId,
          jobId: job.id,
          jobType: job.type,
          jobRunId: ids[runIndex]!,
          entityKey: task.key,
          errorType: task.errorType,
          message: task.message,
          payload: task.payload,
          occurrences: prng.int(1, 6),
          createdAt,
          lastSeenAt: createdAt,
        });
      }
    }
  });
}

/**
 * On a restart the sandboxes begin afresh: forget what the ledgers knew of their catalogues and
 * invoices. The orders stay, the past's and today's alike: they happened, and the reports count them;
 * so do the past's invoices.
 */
export async function clearSandboxLedgers(db: Db, companyId: number) {
  const { invoiceLedger, syncCursors, syncLedger } = engineSchema;
  for (const table of [syncCursors, syncLedger]) {
    await db.delete(table).where(eq(table.companyId, companyId));
  }
  // The seeded past's invoices stay with its orders (they happened); the live shop's start afresh.
  await db
    .delete(invoiceLedger)
    .where(
      and(eq(invoiceLedger.companyId, companyId), notLike(invoiceLedger.orderNo, `${HISTORY_ORDER_PREFIX}%`)),
    );
}
