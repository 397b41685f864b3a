import {
  SUPPORT_ANSWERED_BY,
  type Ticket,
  type TicketAttachment,
  type TicketCategory,
  type TicketReply,
} from "@ep/contracts";
import { and, asc, count, desc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { users } from "../../platform/db/schema.ts";
import type { Tx } from "../../platform/db/tx-sql.ts";
import { type TicketRow, ticketAttachments, ticketCategories, ticketReplies, tickets } from "./schema.ts";

export type Executor = Db | Tx;

export async function listCategories(db: Executor, parentId: number | null): Promise<TicketCategory[]> {
  const rows = await db
    .select()
    .from(ticketCategories)
    .where(parentId === null ? isNull(ticketCategories.parentId) : eq(ticketCategories.parentId, parentId))
    .orderBy(asc(ticketCategories.sortOrder), asc(ticketCategories.id));
  return rows.map((c) => ({ id: c.id, name: c.name, parentId: c.parentId }));
}

export async function findCategory(db: Executor, id: number) {
  return (await db.select().from(ticketCategories).where(eq(ticketCategories.id, id)))[0];
}

export async function findTicket(
  db: Executor,
  id: number,
  companyId: number | null,
): Promise<TicketRow | undefined> {
  const where =
    companyId === null ? eq(tickets.id, id) : and(eq(tickets.id, id), eq(tickets.companyId, companyId));
  return (await db.select().from(tickets).where(where))[0];
}

/** `searchKey`: a ticket number (with or without '#') or words in the subject. */
export function searchCondition(searchKey: string | undefined): SQL | undefined {
  const key = searchKey?.trim();
  if (!key) return undefined;
  const asNumber = /^#?\d{1,9}$/.test(key) ? Number(key.replace("#", "")) : null;
  const pattern = `%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const subject = sql`${tickets.subject} ilike ${pattern}`;
  return asNumber === null ? subject : sql`(${subject} or ${tickets.id} = ${asNumber})`;
}

export async function pageTickets(
  db: Executor,
  where: SQL | undefined,
  order: SQL[],
  pageNumber: number,
  pageSize: number,
): Promise<{ rows: TicketRow[]; totalCount: number }> {
  const [total] = await db.select({ n: count() }).from(tickets).where(where);
  const rows = await db
    .select()
    .from(tickets)
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((pageNumber - 1) * pageSize);
  return { rows, totalCount: total?.n ?? 0 };
}

export async function countByStatus(db: Executor, companyId: number, status: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(tickets)
    .where(and(eq(tickets.companyId, companyId), eq(tickets.status, status)));
  return row?.n ?? 0;
}

export const orderByCreated = (direction: "asc" | "desc" | undefined) =>
  direction === "asc"
    ? [asc(tickets.createdAt), asc(tickets.id)]
    : [desc(tickets.createdAt), desc(tickets.id)];

/** Turns ticket rows into the API shape with their replies, attachments, account and category. */
export async function toTickets(db: Executor, rows: TicketRow[]): Promise<Ticket[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((t) => t.id);
  const [replies, files, people, categories] = await Promise.all([
    db
      .select()
      .from(ticketReplies)
      .where(inArray(ticketReplies.ticketId, ids))
      .orderBy(asc(ticketReplies.createdAt), asc(ticketReplies.id)),
    db.select().from(ticketAttachments).where(inArray(ticketAttachments.ticketId, ids)),
    db
      .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
      .from(users)
      .where(inArray(users.id, [...new Set(rows.map((t) => t.userId))])),
    db.select().from(ticketCategories),
  ]);
  const categoryById = new Map(
    categories.map((c) => [c.id, { id: c.id, name: c.name, parentId: c.parentId }]),
  );
  const personById = new Map(people.map((p) => [p.id, p]));
  const filesByReply = new Map<number, TicketAttachment[]>();
  for (const f of files) {
    const list = filesByReply.get(f.replyId) ?? [];
    list.push({ id: f.id, fileName: f.fileName, contentType: f.contentType, size: f.size });
    filesByReply.set(f.replyId, list);
  }
  const repliesByTicket = new Map<number, TicketReply[]>();
  for (const r of replies) {
    const list = repliesByTicket.get(r.ticketId) ?? [];
    const person = personById.get(r.answeredBy);
    list.push({
      id: r.id,
      message: r.message,
      answeredBy: r.answeredBy,
      answeredByName:
        r.answeredBy === SUPPORT_ANSWERED_BY
          ? "Destek Ekibi"
          : person
            ? `${person.firstName} ${person.lastName}`
            : "",
      created_Date: r.createdAt.toISOString(),
      attachments: filesByReply.get(r.id) ?? [],
    });
    repliesByTicket.set(r.ticketId, list);
  }
  return rows.map((t) => {
    const person = personById.get(t.userId);
    const category = t.categoryId ? (categoryById.get(t.categoryId) ?? null) : null;
    const parentCategory = category?.parentId ? (categoryById.get(category.parentId) ?? null) : null;
    return {
      id: t.id,
      subject: t.subject,
      status: t.status,
      category,
      parentCategory,
      created_Date: t.createdAt.toISOString(),
      updated_Date: t.updatedAt.toISOString(),
      closed_Date: t.closedAt?.toISOString() ?? null,
      jobRunId: t.jobRunId,
      jobErrorReportId: t.jobErrorReportId,
      account: {
        id: t.userId,
        first_Name: person?.firstName ?? "",
        last_Name: person?.lastName ?? "",
        email: person?.email ?? "",
      },
      ticketReplies: repliesByTicket.get(t.id) ?? [],
    };
  });
}

export async function findAttachment(db: Executor, ticketId: number, attachmentId: number) {
  return (
    await db
      .select()
      .from(ticketAttachments)
      .where(and(eq(ticketAttachments.id, attachmentId), eq(ticketAttachments.ticketId, ticketId)))
  )[0];
}
