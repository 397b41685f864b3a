import { getDescriptor, getSalesChannelDescriptor } from "@ep/connectors";
import { type ConnectionStatus, type DashboardDto, type JobType, message } from "@ep/contracts";
import type { AppContext } from "../../platform/context.ts";
import { TURKEY_OFFSET_MS, turkishDateRange, turkishDayStart } from "../../platform/time/turkey.ts";
import { countInvoices } from "../invoices/count.ts";
import { issuesInvoices } from "../invoices/route.ts";
import { toJobDto } from "../jobs/repository.ts";
import { dueLicenceNotifications, insertLicenceNotifications } from "../notifications/repository.ts";
import { connectionStatus } from "./connection-status.ts";
import * as repo from "./repository.ts";

const DAY_MS = 86_400_000;
const ANNOUNCEMENTS_SHOWN = 5;

/** Spec section 9: weekly = 7 days from this ISO week's Monday; monthly = the whole current month. */
export function salesWindow(now: Date, period: "weekly" | "monthly"): { from: Date; to: Date } {
  const today = turkishDayStart(now);
  const local = new Date(today.getTime() + TURKEY_OFFSET_MS);
  if (period === "weekly") {
    const sinceMonday = (local.getUTCDay() + 6) % 7;
    const from = new Date(today.getTime() - sinceMonday * DAY_MS);
    return { from, to: new Date(from.getTime() + 7 * DAY_MS) };
  }
  const from = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), 1) - TURKEY_OFFSET_MS);
  const to = new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + 1, 1) - TURKEY_OFFSET_MS);
  return { from, to };
}

export class DashboardService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  /**
   * One statement whatever the history (see `dashboardSnapshot`), and one insert more only while a
   * licence notification is due.
   */
  async dashboard(companyId: number): Promise<DashboardDto> {
    const now = this.ctx.clock.now();
    const facts = await repo.dashboardSnapshot(this.db, companyId, ANNOUNCEMENTS_SHOWN);
    const licenceRows = facts.licences;
    const jobRows = facts.jobs;
    await insertLicenceNotifications(this.db, dueLicenceNotifications(companyId, licenceRows, now));

    const jobs = jobRows.map((r) => ({ ...r, dto: toJobDto(r.job, r.active) }));
    const report = (type: JobType) => {
      const row = jobs.find((j) => j.dto.type === type && j.job.connectionId === null);
      const run = row?.lastRun;
      const name = row?.dto.name ?? type;
      const failed = row?.lastCounts?.failed ?? 0;
      let description: string;
      if (row && !row.dto.is_enabled) description = message("panel.reportDisabled", { job: name });
      else if (!run) description = message("panel.reportNever", { job: name });
      else if (run.status === "Failed" || run.status === "Crashed" || failed > 0)
        description = message("panel.reportFailed", { job: name, failed });
      else
        description = message("panel.reportSucceeded", { job: name, written: row?.lastCounts?.written ?? 0 });
      return {
        description,
        jobType: type,
        last_run_date: row?.dto.last_run_date ?? null,
        last_Run_State: row?.dto.last_Run_State ?? null,
      };
    };

    // The shop's and ERP's status come from the shop's jobs; each channel's runs speak for that channel.
    const runs = jobs.flatMap((j) => (j.job.connectionId === null ? (j.lastRun ?? []) : []));
    const status = (kind: "erp" | "shop") => {
      const connection = facts.connections.find((c) => c.kind === kind);
      return connectionStatus(kind, connection && { ...connection, kind }, runs);
    };
    const erp = status("erp");
    const shop = status("shop");
    const einvoiceService = this.einvoiceService(facts.connections, erp);
    const atLimit = (n: number) => n >= repo.COUNT_LIMIT;
    // Orders waiting for the ERP: a channel's own; the shop's are the rest (its connection id is not read).
    const channelIds = new Set(facts.channels.map((c) => c.id));
    const waitingOf = (channelId: number | null) =>
      channelId !== null
        ? (facts.waitingOrders.get(channelId) ?? 0)
        : [...facts.waitingOrders].reduce((sum, [id, n]) => (channelIds.has(id) ? sum : sum + n), 0);

    return {
      productIntegrationReport: report("ProductIntegration"),
      stockIntegrationReport: report("StockIntegration"),
      priceIntegrationReport: report("PriceIntegration"),
      orderIntegrationReport: report("OrderIntegration"),
      licences: licenceRows.map((l) => ({
        license_name: l.name,
        license_description: l.description,
        product_type: l.productType,
        image_file_name: l.imageFileName,
        expire_date: l.expiresAt.toISOString(),
      })),
      erpapiConnectionStatus: erp.state === "connected",
      eCommerceAPIConnectionStatus: shop.state === "connected",
      connectionMessages: { erp: erp.message, eCommerce: shop.message },
      connectionStatuses: { erp, eCommerce: shop },
      erpAgentId: facts.connections.find((c) => c.kind === "erp")?.agentId ?? null,
      einvoiceService,
      failedJobReports: jobs
        .filter((j) => j.openErrors > 0)
        .map((j) => ({
          jobName: j.dto.name,
          jobType: j.dto.type,
          failedOperationCount: j.openErrors,
          failedOperationCountAtLeast: atLimit(j.openErrors),
          channel_id: j.job.connectionId,
          jobId: j.job.id,
        })),
      lastAnnouncements: facts.announcements,
      companyJobs: jobs.map((j) => j.dto),
      freshness: jobs.map(({ dto, job, openErrors }) => ({
        jobId: dto.id,
        jobType: dto.type,
        name: dto.name,
        is_enabled: dto.is_enabled,
        last_success_date: dto.last_success_date,
        last_run_date: dto.last_run_date,
        waiting: openErrors + (dto.type === "OrderIntegration" ? waitingOf(job.connectionId) : 0),
        channel_id: job.connectionId,
      })),
      channels: facts.channels.map((c) => ({
        ...c,
        name: getSalesChannelDescriptor(c.system)?.name ?? c.system,
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
    return repo.salesReport(this.db, companyId, { ...q, ...turkishDateRange(q) });
  }

  /**
   * The e-invoice service card: who issues the invoices (invoices/route.ts) and that connection's status
   * (its last test: the service takes no part in the product and order runs).
   */
  private einvoiceService(
    connections: Array<{
      kind: "erp" | "shop" | "einvoice";
      systemType: number;
      lastTestAt: Date | null;
      lastTestOk: boolean | null;
      lastTestMessage: string | null;
    }>,
    erpStatus: ConnectionStatus,
  ): DashboardDto["einvoiceService"] {
    const service = connections.find((c) => c.kind === "einvoice");
    if (service)
      return {
        route: "service",
        system: getDescriptor("erp", service.systemType)?.name ?? String(service.systemType),
        status: connectionStatus("erp", { ...service, kind: "erp" }, []),
      };
    const erp = connections.find((c) => c.kind === "erp");
    if (erp && issuesInvoices(erp.systemType))
      return {
        route: "erpService",
        system: getDescriptor("erp", erp.systemType)?.name ?? String(erp.systemType),
        status: erpStatus,
      };
    return { route: "erp", system: null, status: null };
  }

  async runStatistics(companyId: number, q: { startDate?: string; endDate?: string }) {
    const range = turkishDateRange(q);
    const rows = await repo.runStatistics(this.db, companyId, range.from, range.to);
    // The invoice job's row counts invoices as the Faturalar screen does (one definition: count.ts),
    // not the sum of its runs' own tallies.
    const invoices = await countInvoices(this.db, companyId, range);
    return rows.map((r) => (r.jobType === "InvoiceIntegration" ? { ...r, written: invoices.total } : r));
  }
}
