import type { RunStatusDto, SupportAction } from "@ep/contracts";
import { desc, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { users } from "../../platform/db/schema.ts";
import type { Tx } from "../../platform/db/tx-sql.ts";
import { supportActions } from "./schema.ts";

export type SupportActionName =
  | "ticket.reply"
  | "ticket.close"
  | "ticket.view"
  | "license.update"
  | "announcement.create";

/** Writes one line of the support audit trail (in the caller's transaction). */
export async function recordSupportAction(
  db: Db | Tx,
  entry: {
    supportUserId: number;
    action: SupportActionName;
    companyId?: number | null;
    ticketId?: number | null;
    details?: Record<string, unknown>;
  },
): Promise<void> {
  await db.insert(supportActions).values({
    supportUserId: entry.supportUserId,
    action: entry.action,
    companyId: entry.companyId ?? null,
    ticketId: entry.ticketId ?? null,
    details: entry.details ?? {},
  });
}

/** A job run as the console shows it (rows from a subquery may carry dates as text). */
export function toRunSummary(r: {
  id: number;
  jobName: string;
  jobType: string;
  status: RunStatusDto;
  queuedAt: Date | string;
  finishedAt: Date | string | null;
}) {
  return {
    id: r.id,
    jobName: r.jobName,
    jobType: r.jobType,
    status: r.status,
    queued_Date: new Date(r.queuedAt).toISOString(),
    finished_Date: r.finishedAt ? new Date(r.finishedAt).toISOString() : null,
  };
}

export async function listSupportActions(db: Db, limit: number): Promise<SupportAction[]> {
  const rows = await db
    .select({ a: supportActions, email: users.email })
    .from(supportActions)
    .leftJoin(users, eq(users.id, supportActions.supportUserId))
    .orderBy(desc(supportActions.id))
    .limit(limit);
  return rows.map(({ a, email }) => ({
    id: a.id,
    action: a.action,
    supportUser: email ?? "",
    companyId: a.companyId,
    ticketId: a.ticketId,
    details: a.details,
    created_Date: a.createdAt.toISOString(),
  }));
}
