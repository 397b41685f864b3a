import { desc } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import type { Tx } from "../../platform/db/tx-sql.ts";
import { announcements } from "./schema.ts";

export type AnnouncementRow = typeof announcements.$inferSelect;

/** The newest announcements first, as the dashboard's `lastAnnouncements` shows them. */
export async function latestAnnouncements(
  db: Db,
  limit: number,
): Promise<{ id: number; created_date: string; type: string; content: string }[]> {
  const rows = await db
    .select()
    .from(announcements)
    .orderBy(desc(announcements.date), desc(announcements.id))
    .limit(limit);
  return rows.map((a) => ({
    id: a.id,
    created_date: a.date.toISOString(),
    type: a.type,
    content: a.content,
  }));
}

export async function insertAnnouncement(
  db: Db | Tx,
  values: { type: string; content: string; date: Date; createdBy: number },
): Promise<AnnouncementRow> {
  const [row] = await db.insert(announcements).values(values).returning();
  if (!row) throw new Error("announcement insert returned nothing");
  return row;
}
