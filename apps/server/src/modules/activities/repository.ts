import { type ActivityAction, type ActivityDto, type Language, message } from "@ep/contracts";
import { and, desc, eq, gte, lt, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { users } from "../../platform/db/schema.ts";
import type { Tx } from "../../platform/db/tx-sql.ts";
import { turkishDateRange } from "../../platform/time/turkey.ts";
import { activities } from "./schema.ts";

type Executor = Db | Tx;

/**
 * Notes one user action that changed something ('Son Aktiviteler'). Other modules call this after
 * the change succeeded; `detail` is filled into the action's text (a job name, a count, a subject).
 */
export async function recordActivity(
  db: Executor,
  input: { companyId: number; userId: number | null; action: ActivityAction; detail?: string },
): Promise<void> {
  await db.insert(activities).values({
    companyId: input.companyId,
    userId: input.userId,
    action: input.action,
    detail: (input.detail ?? "").slice(0, 300),
  });
}

export function describeActivity(action: ActivityAction, detail: string, lang: Language = "tr"): string {
  return message(`activity.${action}`, { detail }, lang);
}

/** A company's activities, newest first, one page. */
export async function listActivities(
  db: Db,
  companyId: number,
  q: { pageNumber: number; pageSize: number; startDate?: string; endDate?: string },
): Promise<ActivityDto[]> {
  const where: SQL[] = [eq(activities.companyId, companyId)];
  const range = turkishDateRange(q);
  if (range.from) where.push(gte(activities.createdAt, range.from));
  if (range.to) where.push(lt(activities.createdAt, range.to));
  const rows = await db
    .select({
      id: activities.id,
      action: activities.action,
      detail: activities.detail,
      createdAt: activities.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(activities)
    .leftJoin(users, eq(users.id, activities.userId))
    .where(and(...where))
    .orderBy(desc(activities.createdAt), desc(activities.id))
    .limit(q.pageSize)
    .offset((q.pageNumber - 1) * q.pageSize);
  return rows.map((r) => {
    const action = r.action as ActivityAction;
    return {
      id: r.id,
      action,
      detail: r.detail,
      activity_Description: describeActivity(action, r.detail),
      created_Date: r.createdAt.toISOString(),
      user: r.firstName !== null ? { first_Name: r.firstName, last_Name: r.lastName ?? "" } : null,
    };
  });
}
