import { type DashboardDto, type JobDto, type JobType, message } from "@ep/contracts";
import type { AppContext } from "../../platform/context.ts";
import { latestAnnouncements } from "../announcements/repository.ts";
import { listJobs } from "../jobs/repository.ts";
import { listLicenses } from "../license/repository.ts";
import { raiseLicenceNotifications } from "../notifications/repository.ts";
import * as repo from "./repository.ts";

const DAY_MS = 86_400_000;
const TR_OFFSET_MS = 3 * 3_600_000;
const ANNOUNCEMENTS_SHOWN = 5;

/** Midnight (Turkish time) of the day `now` falls in, as a UTC instant. */
function trMidnight(now: Date): Date {
  const shifted = new Date(now.getTime() + TR_OFFSET_MS);
  return new Date(
    Date.UTC(shifted.getUTCFullYear(), shifted.getUTCMonth(), shifted.getUTCDate()) - TR_OFFSET_MS,
  );
}

/** Spec section 9: weekly = 7 days from this ISO week's Monday; monthly = the whole current month. */
export function salesWindow(now: Date, period: "weekly" | "monthly"): { from: Date; to: Date } {
  const today = trMidnight(now);
  const local = new Date(today.getTime() + TR_OFFSET_MS);
  if (period === "weekly") {
    const sinceMonday = (local.getUTCDay() + 6) % 7;
    const from = new Date(today.getTime() - sinceMonday * DAY_MS);
    return { from, to: new Date(from.getTime() + 7 * DAY_MS) };
  }
  const from = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - TR_OFFSET_MS);
  const to = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - TR_OFFSET_MS);
  return { from, to };
}

export class DashboardService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async dashboard(companyId: number): Promise<DashboardDto> {
    const now = this.ctx.clock.now();
    await raiseLicenceNotifications(this.db, companyId, now);
    const [jobs, licences, connections, lastRuns, openErrors, waitingOrders, announcements] =
      await Promise.all([
        listJobs(this.db, companyId, null),
        listLicenses(this.db, companyId, now),
        repo.companyConnections(this.db, companyId),
        repo.lastFinishedRuns(this.db, companyId),
        repo.openErrorsByJob(this.db, companyId),
        repo.ordersWaiting(this.db, companyId),
        latestAnnouncements(this.db, ANNOUNCEMENTS_SHOWN),
      ]);

    const report = (type: JobType) => {
      const job = jobs.find((j) => j.type === type);
      const run = job ? lastRuns.get(job.id) : undefined;
      const name = job?.name ?? type;
      let description: string;
      if (job && !job.is_enabled) description = message("panel.reportDisabled", { job: name });
      else if (!run) description = message("panel.reportNever", { job: name });
      else if (run.status === "Failed" || run.status === "Crashed" || run.counts.failed > 0)
        description = message("panel.reportFailed", { job: name, failed: run.counts.failed });
      else description = message("panel.reportSucceeded", { job: name, written: run.counts.written });
      return {
        description,
        jobType: type,
        last_run_date: job?.last_run_date ?? null,
        last_Run_State: job?.last_Run_State ?? null,
      };
    };

    // A tested connection answers with its last test; an untested one with the latest run's outcome.
    const newestRun = [...lastRuns.values()].sort(
      (a, b) => (b.finishedAt?.getTime() ?? 0) - (a.finishedAt?.getTime() ?? 0),
    )[0];
    const runsOk = newestRun ? newestRun.status !== "Failed" && newestRun.status !== "Crashed" : false;
    const status = (kind: "erp" | "shop") => {
      const c = connections.find((x) => x.kind === kind);
      if (!c) return { ok: false, message: message("panel.connectionUntested") };
      if (c.lastTestAt && c.lastTestOk !== null) return { ok: c.lastTestOk, message: c.lastTestMessage };
      return {
        ok: runsOk,
        message: newestRun ? message("panel.connectionFromRuns") : message("panel.connectionUntested"),
      };
    };
    const erp = status("erp");
    const shop = status("shop");

    return {
      productIntegrationReport: report("ProductIntegration"),
      stockIntegrationReport: report("StockIntegration"),
      priceIntegrationReport: report("PriceIntegration"),
      orderIntegrationReport: report("OrderIntegration"),
      licences: licences.map((l) => ({
        license_name: l.license_name,
        license_description: l.license_description,
        product_type: l.product_type,
        image_file_name: l.image_file_name,
        expire_date: l.expire_date,
      })),
      erpapiConnectionStatus: erp.ok,
      eCommerceAPIConnectionStatus: shop.ok,
      connectionMessages: { erp: erp.message, eCommerce: shop.message },
      failedJobReports: jobs
        .filter((j) => (openErrors.get(j.id) ?? 0) > 0)
        .map((j) => ({ jobName: j.name, jobType: j.type, failedOperationCount: openErrors.get(j.id) ?? 0 })),
      lastAnnouncements: announcements.map((a) => ({
        created_date: a.created_date,
        type: a.type,
        content: a.content,
      })),
      companyJobs: jobs,
      freshness: jobs.map((j: JobDto) => ({
        jobId: j.id,
        jobType: j.type,
        name: j.name,
        is_enabled: j.is_enabled,
        last_success_date: j.last_success_date,
        waiting: (openErrors.get(j.id) ?? 0) + (j.type === "OrderIntegration" ? waitingOrders : 0),
      })),
    };
  }

  salesReports(companyId: number, period: "weekly" | "monthly") {
    const { from, to } = salesWindow(this.ctx.clock.now(), period);
    return repo.dailySales(this.db, companyId, from, to);
  }

  salesReport(
    companyId: number,
    q: { pageNumber: number; pageSize: number; startDate?: string; endDate?: string },
  ) {
    return repo.salesReport(this.db, companyId, { ...q, ...range(q) });
  }

  runStatistics(companyId: number, q: { startDate?: string; endDate?: string }) {
    const { from, to } = range(q);
    return repo.runStatistics(this.db, companyId, from, to);
  }
}

/** startDate/endDate as a half-open range; a bare end date (YYYY-MM-DD) includes that whole day. */
function range(q: { startDate?: string; endDate?: string }): { from: Date | null; to: Date | null } {
  const from = q.startDate ? new Date(q.startDate) : null;
  let to = q.endDate ? new Date(q.endDate) : null;
  if (to && q.endDate && /^\d{4}-\d{2}-\d{2}$/.test(q.endDate)) to = new Date(to.getTime() + DAY_MS);
  return { from, to };
}
