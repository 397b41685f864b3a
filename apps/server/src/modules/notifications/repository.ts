import { message, type NotificationDto, type PagedList } from "@ep/contracts";
import { engineSchema, notifyCompany } from "@ep/engine";
import { and, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { licenses } from "../../platform/db/schema.ts";

const { notifications } = engineSchema;
const DAY_MS = 86_400_000;
/** A licence notifies once when it is within this many days of expiring, and once when expired. */
export const LICENCE_WARNING_DAYS = 7;

const dayFormat = new Intl.DateTimeFormat("tr-TR", {
  timeZone: "Europe/Istanbul",
  day: "2-digit",
  month: "2-digit",
  year: "numeric",
});
/** DD-MM-YYYY in Turkish time. */
export const ddMmYyyy = (date: Date) => dayFormat.format(date).replace(/\./g, "-");

export async function listNotifications(
  db: Db,
  companyId: number,
  pageNumber: number,
  pageSize: number,
): Promise<PagedList<NotificationDto>> {
  const where = eq(notifications.companyId, companyId);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(pageSize)
      .offset((pageNumber - 1) * pageSize),
    db.select({ n: count() }).from(notifications).where(where),
  ]);
  return {
    dataList: rows.map((n) => ({
      id: n.id,
      is_Read: n.isRead,
      type: n.type,
      notification_Text: n.text,
      created_Date: n.createdAt.toISOString(),
    })),
    totalCount: Number(total?.n ?? 0),
    pageNumber,
    pageSize,
  };
}

export async function countUnread(db: Db, companyId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.companyId, companyId), eq(notifications.isRead, false)));
  return Number(row?.n ?? 0);
}

/** Marks the caller's own notifications read; others' ids are ignored. Answers how many changed. */
export async function markRead(db: Db, companyId: number, ids: number[]): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ isRead: true })
    .where(
      and(
        eq(notifications.companyId, companyId),
        inArray(notifications.id, ids),
        eq(notifications.isRead, false),
      ),
    )
    .returning({ id: notifications.id });
  return rows.length;
}

/**
 * Raises the licence notifications that are due: expiring within 7 days, and expired. The source
 * carries the licence and its expiry date, so each notifies once, and again after a renewal.
 */
export async function raiseLicenceNotifications(db: Db, companyId: number, now: Date): Promise<void> {
  const rows = await db.select().from(licenses).where(eq(licenses.companyId, companyId));
  for (const l of rows) {
    const left = l.expiresAt.getTime() - now.getTime();
    const stamp = l.expiresAt.toISOString().slice(0, 10);
    if (left <= 0) {
      const text = message("panel.licenceExpired", { licence: l.name });
      await notifyCompany(db, companyId, "Error", text, `licence-expired:${l.id}:${stamp}`);
    } else if (left <= LICENCE_WARNING_DAYS * DAY_MS) {
      const text = message("panel.licenceExpiring", {
        licence: l.name,
        date: ddMmYyyy(l.expiresAt),
        days: Math.ceil(left / DAY_MS),
      });
      await notifyCompany(db, companyId, "Info", text, `licence-expiring:${l.id}:${stamp}`);
    }
  }
}
