import { engineSchema } from "@ep/engine";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { companies, licenses, users } from "../../platform/db/schema.ts";
import { excel } from "../../platform/excel.ts";
import { safeCell } from "../../platform/export-cells.ts";
import { inTurns } from "../../platform/turns.ts";
import { activities } from "../activities/schema.ts";
import { erpMatchings } from "../erp-matching/schema.ts";
import { ticketAttachments, ticketReplies, tickets } from "../tickets/schema.ts";
import { companyDeletions } from "./schema.ts";

type Row = Record<string, unknown>;
/** A company's data, one list of rows per table, in the order the export shows them. */
export type CompanyData = Record<string, Row[]>;

const e = engineSchema;

/**
 * Everything stored about one company. Secrets stay out: password hashes, sealed connection
 * credentials and attachment storage keys are not the company's data but our means to keep it.
 */
export async function collectCompanyData(db: Db, companyId: number): Promise<CompanyData> {
  const ticketRows = await db.select().from(tickets).where(eq(tickets.companyId, companyId));
  const ticketIds = ticketRows.map((t) => t.id);
  const byTicket = ticketIds.length > 0;
  return {
    company: await db.select().from(companies).where(eq(companies.id, companyId)),
    users: await db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
        phone: users.phone,
        language: users.language,
        createdAt: users.createdAt,
        updatedAt: users.updatedAt,
      })
      .from(users)
      .where(eq(users.companyId, companyId)),
    licenses: await db.select().from(licenses).where(eq(licenses.companyId, companyId)),
    connections: await db
      .select({
        id: e.connections.id,
        kind: e.connections.kind,
        systemType: e.connections.systemType,
        isEmulated: e.connections.isEmulated,
        lastTestAt: e.connections.lastTestAt,
        lastTestOk: e.connections.lastTestOk,
        lastTestMessage: e.connections.lastTestMessage,
        createdAt: e.connections.createdAt,
        updatedAt: e.connections.updatedAt,
      })
      .from(e.connections)
      .where(eq(e.connections.companyId, companyId)),
    settings: await db.select().from(e.companySettings).where(eq(e.companySettings.companyId, companyId)),
    jobs: await db.select().from(e.jobs).where(eq(e.jobs.companyId, companyId)),
    jobRuns: await db
      .select({
        id: e.jobRuns.id,
        jobId: e.jobRuns.jobId,
        jobType: e.jobRuns.jobType,
        jobName: e.jobRuns.jobName,
        trigger: e.jobRuns.trigger,
        status: e.jobRuns.status,
        queuedAt: e.jobRuns.queuedAt,
        startedAt: e.jobRuns.startedAt,
        finishedAt: e.jobRuns.finishedAt,
        counts: e.jobRuns.counts,
        calls: e.jobRuns.calls,
        report: e.jobRuns.report,
      })
      .from(e.jobRuns)
      .where(eq(e.jobRuns.companyId, companyId)),
    failedTasks: await db.select().from(e.jobErrorReports).where(eq(e.jobErrorReports.companyId, companyId)),
    notifications: await db.select().from(e.notifications).where(eq(e.notifications.companyId, companyId)),
    activities: await db.select().from(activities).where(eq(activities.companyId, companyId)),
    erpMatchings: await db.select().from(erpMatchings).where(eq(erpMatchings.companyId, companyId)),
    tickets: ticketRows,
    ticketReplies: byTicket
      ? await db.select().from(ticketReplies).where(inArray(ticketReplies.ticketId, ticketIds))
      : [],
    ticketAttachments: byTicket
      ? await db
          .select({
            id: ticketAttachments.id,
            ticketId: ticketAttachments.ticketId,
            replyId: ticketAttachments.replyId,
            fileName: ticketAttachments.fileName,
            contentType: ticketAttachments.contentType,
            size: ticketAttachments.size,
            createdAt: ticketAttachments.createdAt,
          })
          .from(ticketAttachments)
          .where(inArray(ticketAttachments.ticketId, ticketIds))
      : [],
    orders: await db.select().from(e.orderLedger).where(eq(e.orderLedger.companyId, companyId)),
    invoices: await db.select().from(e.invoiceLedger).where(eq(e.invoiceLedger.companyId, companyId)),
    syncLedger: await db.select().from(e.syncLedger).where(eq(e.syncLedger.companyId, companyId)),
    deletionRequests: await db
      .select()
      .from(companyDeletions)
      .where(eq(companyDeletions.companyId, companyId)),
  };
}

/** Excel cell text: dates as ISO, nested values as JSON, Excel's 32,767-character cell limit kept. */
function cellOf(value: unknown): string | number | boolean | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "number" || typeof value === "boolean") return value;
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return safeCell(text.length > 32_767 ? `${text.slice(0, 32_760)}…` : text);
}

/** One worksheet per table, its columns the table's fields; empty tables keep an empty sheet. */
export async function toWorkbook(data: CompanyData): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  workbook.creator = "Entegrasyon Paneli";
  for (const [name, rows] of Object.entries(data)) {
    const sheet = workbook.addWorksheet(name);
    const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    sheet.columns = keys.map((key) => ({
      header: key,
      key,
      width: Math.min(40, Math.max(12, key.length + 2)),
    }));
    await inTurns(rows, (row) => sheet.addRow(Object.fromEntries(keys.map((k) => [k, cellOf(row[k])]))));
    if (keys.length > 0) sheet.getRow(1).font = { bold: true };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
