import { message, type NotificationDto, type PagedList } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, desc, eq, inArray } from "drizzle-orm";
import { countRows } from "../../platform/db/count-rows.ts";
import type { Db } from "../../platform/db/database.ts";
import { licenses } from "../../platform/db/schema.ts";
import { formatDate } from "../../platform/time/turkey.ts";

const { notifications } = engineSchema;
const DAY_MS = 86_400_000;
/** A licence notifies once when it is within this many days of expiring, and once when expired. */
export const LICENCE_WARNING_DAYS = 7;

export async function listNotifications(
  db: Db,
  companyId: number,
  pageNumber: number,
  pageSize: number,
): Promise<PagedList<NotificationDto>> {
  const where = eq(notifications.companyId, companyId);
  const [rows, total] = await Promise.all([
    db
      .select()
      .from(notifications)
      .where(where)
      .orderBy(desc(notifications.createdAt), desc(notifications.id))
      .limit(pageSize)
      .offset((pageNumber - 1) * pageSize),
    countRows(db, notifications, where),
  ]);
  return {
    dataList: rows.map((n) => ({
      id: n.id,
      is_Read: n.isRead,
      type: n.type,
      notification_Text: n.text,
      created_Date: n.createdAt.toISOString(),
      link: linkOf(n.source),
    })),
    totalCount: total,
    pageNumber,
    pageSize,
  };
}

/** The screen a notification opens, from what raised it: a ticket answer opens that ticket. */
export function linkOf(source: string | null): string | null {
  const ticket = source ? /^ticket:(\d+):/.exec(source) : null;
  return ticket ? `/tickets/${ticket[1]}` : null;
}

export async function countUnread(db: Db, companyId: number): Promise<number> {
  return countRows(
    db,
    notifications,
    and(eq(notifications.companyId, companyId), eq(notifications.isRead, false)),
  );
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

type LicenceRow = typeof licenses.$inferSelect;
type NotificationInsert = typeof notifications.$inferInsert;

/**
 * The licence notifications due now: expiring within 7 days, and expired. The source carries the
 * licence and its expiry date, so each notifies once, and again after a renewal.
 */
export function dueLicenceNotifications(
  companyId: number,
  rows: LicenceRow[],
  now: Date,
): NotificationInsert[] {
  return rows.flatMap((l): NotificationInsert[] => {
    const left = l.expiresAt.getTime() - now.getTime();
    const stamp = l.expiresAt.toISOString().slice(0, 10);
    if (left <= 0) {
      const text = message("panel.licenceExpired", { licence: l.name });
      return [{ companyId, type: "Error", text, source: `licence-expired:${l.id}:${stamp}` }];
    }
    if (left <= LICENCE_WARNING_DAYS * DAY_MS) {
      const text = message("panel.licenceExpiring", {
        licence: l.name,
        date: formatDate(l.expiresAt),
        days: Math.ceil(left / DAY_MS),
      });
      return [{ companyId, type: "Info", text, source: `licence-expiring:${l.id}:${stamp}` }];
    }
    return [];
  });
}

/** Stores the due licence notifications in one statement; ones already raised are skipped. */
export async function insertLicenceNotifications(db: Db, values: NotificationInsert[]): Promise<void> {
  if (values.length > 0) await db.insert(notifications).values(values).onConflictDoNothing();
}

/** Raises the licence notifications that are due (see `dueLicenceNotifications`). */
export async function raiseLicenceNotifications(db: Db, companyId: number, now: Date): Promise<void> {
  const rows = await db.select().from(licenses).where(eq(licenses.companyId, companyId));
  await insertLicenceNotifications(db, dueLicenceNotifications(companyId, rows, now));
}
