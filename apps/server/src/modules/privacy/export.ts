import { getDescriptor, getSalesChannelDescriptor } from "@ep/connectors";
import { type JobType, type MessageCatalog, type MessageKey, message } from "@ep/contracts";
import { engineSchema, JOB_CATALOG } from "@ep/engine";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { companies, licenses, users } from "../../platform/db/schema.ts";
import { EXCEL_DATE_TIME, excel } from "../../platform/excel.ts";
import { safeCell } from "../../platform/export-cells.ts";
import { formatDateTime, TURKEY_OFFSET_MS } from "../../platform/time/turkey.ts";
import { inTurns } from "../../platform/turns.ts";
import { activities } from "../activities/schema.ts";
import { erpMatchings } from "../erp-matching/schema.ts";
import { customerName } from "../reports/export.ts";
import { ticketAttachments, ticketReplies, tickets } from "../tickets/schema.ts";
import { companyDeletions } from "./schema.ts";

type Row = Record<string, unknown>;
/** A company's data, one list of rows per table, in the order the export shows them. */
export type CompanyData = Record<string, Row[]>;

const e = engineSchema;
type RunCounts = typeof e.jobRuns.$inferSelect.counts;

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

type Cell = string | number | Date | null;
type Column = [label: ColumnLabel, value: (row: Row) => unknown];
type ColumnLabel = keyof MessageCatalog["privacyExport"]["columns"];
type SheetName = keyof MessageCatalog["privacyExport"]["sheets"];

const text = (key: string) => message(key as MessageKey);
/** A stored code's word (`Succeeded` → Başarılı); a code without one stays as it is. */
const word = (code: unknown): string => {
  const key = `privacyExport.values.${String(code)}`;
  const found = text(key);
  return found === key ? String(code ?? "") : found;
};
const yesNo = (value: unknown) => word(value ? "yes" : "no");
const systemName = (kind: "erp" | "shop", type: unknown) =>
  getDescriptor(kind, Number(type))?.name ?? String(type ?? "");
const languageNames = new Intl.DisplayNames(["tr"], { type: "language" });
const orderPayload = (row: Row) =>
  row.payload as { shippingAddress?: { city?: string }; customer?: { email?: string } } | null;

/**
 * A nested value in words: a list's items joined, an object's entries as "Etiket: değer" (labels from
 * the catalogue; a key without one, such as a merchant's own code, as itself), numbers the Turkish way.
 */
function readable(value: unknown): string {
  if (value === null || value === undefined || value === "") return word("none");
  if (value instanceof Date) return formatDateTime(value);
  if (typeof value === "boolean") return yesNo(value);
  if (typeof value === "number") return value.toLocaleString("tr-TR");
  if (Array.isArray(value)) return value.length === 0 ? word("none") : value.map(readable).join("; ");
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return word("none");
    return entries
      .map(([key, v]) => {
        if (key === "kind") return word(v);
        const labelKey = `privacyExport.fields.${key}`;
        const label = text(labelKey);
        return `${label === labelKey ? key : label}: ${readable(v)}`;
      })
      .join(", ");
  }
  return word(value);
}

/** Each sheet's columns: what a person reads, never the database's names or JSON. */
const SHEETS: Record<SheetName, Column[]> = {
  company: [
    ["companyName", (r) => r.name],
    ["taxOffice", (r) => r.taxOffice],
    ["taxNumber", (r) => r.taxNumber],
    ["address", (r) => r.address],
    ["phone", (r) => r.phone],
    ["erpSystem", (r) => systemName("erp", r.erpType)],
    ["shopSystem", (r) => systemName("shop", r.ecommerceType)],
    ["demo", (r) => yesNo(r.isDemo)],
    ["createdAt", (r) => r.createdAt],
  ],
  users: [
    ["email", (r) => r.email],
    ["firstName", (r) => r.firstName],
    ["lastName", (r) => r.lastName],
    ["phone", (r) => r.phone],
    ["language", (r) => (r.language ? languageNames.of(String(r.language)) : null)],
    ["createdAt", (r) => r.createdAt],
    ["updatedAt", (r) => r.updatedAt],
  ],
  licenses: [
    ["name", (r) => r.name],
    ["description", (r) => r.description],
    ["trial", (r) => yesNo(r.isTrial)],
    ["expiresAt", (r) => r.expiresAt],
    ["createdAt", (r) => r.createdAt],
  ],
  connections: [
    ["kind", (r) => word(r.kind)],
    [
      "system",
      (r) =>
        r.kind === "channel"
          ? (getSalesChannelDescriptor(String(r.systemKey ?? ""))?.name ?? String(r.systemKey ?? ""))
          : systemName(r.kind === "shop" ? "shop" : "erp", r.systemType),
    ],
    ["sandbox", (r) => yesNo(r.isEmulated)],
    ["lastTestAt", (r) => r.lastTestAt],
    ["lastTestResult", (r) => (r.lastTestAt ? word(r.lastTestOk ? "ok" : "notOk") : null)],
    ["lastTestMessage", (r) => r.lastTestMessage],
    ["createdAt", (r) => r.createdAt],
    ["updatedAt", (r) => r.updatedAt],
  ],
  settings: [
    ["setting", (r) => text(`privacyExport.settings.${String(r.key)}`)],
    ["value", (r) => readable(r.value)],
    ["updatedAt", (r) => r.updatedAt],
  ],
  jobs: [
    ["job", (r) => r.name],
    ["enabled", (r) => yesNo(r.isEnabled)],
    ["lastRunAt", (r) => r.lastRunDate],
    ["lastSuccessAt", (r) => r.lastSuccessAt],
    ["nextRunAt", (r) => r.nextRunAt],
    ["createdAt", (r) => r.createdAt],
  ],
  jobRuns: [
    ["no", (r) => r.id],
    ["job", (r) => r.jobName],
    ["trigger", (r) => word(r.trigger)],
    ["status", (r) => word(r.status)],
    ["startedAt", (r) => r.startedAt ?? r.queuedAt],
    ["finishedAt", (r) => r.finishedAt],
    ["read", (r) => (r.counts as RunCounts | null)?.read ?? 0],
    ["changed", (r) => (r.counts as RunCounts | null)?.changed ?? 0],
    ["written", (r) => (r.counts as RunCounts | null)?.written ?? 0],
    ["failed", (r) => (r.counts as RunCounts | null)?.failed ?? 0],
    ["report", (r) => r.report],
  ],
  failedTasks: [
    ["job", (r) => JOB_CATALOG[r.jobType as JobType]?.name ?? r.jobType],
    ["record", (r) => r.entityKey],
    ["message", (r) => r.message],
    ["detail", (r) => readable(r.payload)],
    ["status", (r) => word(r.status)],
    ["occurrences", (r) => r.occurrences],
    ["firstSeenAt", (r) => r.createdAt],
    ["lastSeenAt", (r) => r.lastSeenAt],
    ["resolvedAt", (r) => r.resolvedAt],
  ],
  notifications: [
    ["kind", (r) => word(r.type)],
    ["text", (r) => r.text],
    ["isRead", (r) => yesNo(r.isRead)],
    ["date", (r) => r.createdAt],
  ],
  activities: [
    [
      "action",
      (r) => message(`activity.${String(r.action)}` as MessageKey, { detail: String(r.detail ?? "") }),
    ],
    ["date", (r) => r.createdAt],
  ],
  erpMatchings: [
    ["erpSku", (r) => r.erpSku],
    ["shopSku", (r) => r.shopSku],
    ["createdAt", (r) => r.createdAt],
  ],
  tickets: [
    ["ticket", (r) => r.id],
    ["subject", (r) => r.subject],
    ["status", (r) => word(`ticket${String(r.status)}`)],
    ["createdAt", (r) => r.createdAt],
    ["closedAt", (r) => r.closedAt],
  ],
  ticketReplies: [
    ["ticket", (r) => r.ticketId],
    ["text", (r) => r.message],
    ["date", (r) => r.createdAt],
  ],
  ticketAttachments: [
    ["ticket", (r) => r.ticketId],
    ["fileName", (r) => r.fileName],
    ["contentType", (r) => r.contentType],
    ["size", (r) => r.size],
    ["date", (r) => r.createdAt],
  ],
  orders: [
    ["orderNo", (r) => r.orderNo],
    ["date", (r) => r.orderDate],
    ["customer", (r) => customerName(r.payload)],
    ["email", (r) => orderPayload(r)?.customer?.email],
    ["city", (r) => orderPayload(r)?.shippingAddress?.city],
    ["amount", (r) => r.grandTotal],
    ["currency", (r) => r.currency],
    ["status", (r) => word(r.state)],
    ["erpDocument", (r) => r.erpDocumentId],
    ["lastError", (r) => r.lastError],
  ],
  invoices: [
    ["invoiceNo", (r) => r.invoiceNo],
    ["orderNo", (r) => r.orderNo],
    ["ettn", (r) => r.ettn],
    ["status", (r) => word(r.state)],
    ["date", (r) => r.createdAt],
  ],
  syncLedger: [
    ["entity", (r) => word(r.entity)],
    ["code", (r) => r.key],
    ["shopId", (r) => r.externalId],
    ["pushedAt", (r) => r.pushedAt],
  ],
  deletionRequests: [
    ["status", (r) => word(r.status)],
    ["requestedAt", (r) => r.requestedAt],
    ["dueAt", (r) => r.dueAt],
    ["cancelledAt", (r) => r.cancelledAt],
    ["completedAt", (r) => r.completedAt],
  ],
};

/**
 * One cell: a date as an Excel date in Turkish wall time (Excel has no time zones) shown in the
 * panel's date format; a number as a number; anything else as text, safe from formula injection and
 * within Excel's 32,767-character cell limit.
 */
function cellOf(value: unknown): Cell {
  if (value === null || value === undefined || value === "") return null;
  if (value instanceof Date) return new Date(value.getTime() + TURKEY_OFFSET_MS);
  if (typeof value === "number") return value;
  const out = typeof value === "string" ? value : readable(value);
  return safeCell(out.length > 32_767 ? `${out.slice(0, 32_760)}…` : out);
}

/**
 * The KVKK export as a person reads it: one sheet per kind of record with Turkish titles, dates in
 * Turkish time in the panel's format, stored codes in words. (The JSON export keeps the stored form.)
 */
export async function toWorkbook(data: CompanyData): Promise<Buffer> {
  const workbook = new (excel().Workbook)();
  workbook.creator = "Entegrasyon Paneli";
  for (const [name, columns] of Object.entries(SHEETS) as Array<[SheetName, Column[]]>) {
    const sheet = workbook.addWorksheet(text(`privacyExport.sheets.${name}`), {
      views: [{ state: "frozen", ySplit: 1 }],
    });
    sheet.columns = columns.map(([label]) => {
      const header = text(`privacyExport.columns.${label}`);
      return { header, key: label, width: Math.min(60, Math.max(14, header.length + 4)) };
    });
    await inTurns(data[name] ?? [], (row) => {
      const added = sheet.addRow(columns.map(([, value]) => cellOf(value(row))));
      added.eachCell((cell) => {
        if (cell.value instanceof Date) cell.numFmt = EXCEL_DATE_TIME;
      });
    });
    sheet.getRow(1).font = { bold: true };
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
