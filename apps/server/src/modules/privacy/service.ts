import { rm } from "node:fs/promises";
import { resolve } from "node:path";
import { DELETION_GRACE_DAYS, type DeletionStatus, message, type SupportDeletion } from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import type { Db } from "../../platform/db/database.ts";
import { companies, loginAttempts, mailMessages, users } from "../../platform/db/schema.ts";
import { type Tx, txExecutor } from "../../platform/db/tx-sql.ts";
import { forgetSessions } from "../../platform/http/auth.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { verifyPassword } from "../../platform/security/passwords.ts";
import { formatDate } from "../../platform/time/turkey.ts";
import { supportActions } from "../support/schema.ts";
import { companyDeletions } from "./schema.ts";

export const COMPANY_DELETION_QUEUE = "company-deletion";
const DAY_MS = 86_400_000;

type DeletionRow = typeof companyDeletions.$inferSelect;

const toStatus = (row: DeletionRow): DeletionStatus => ({
  id: row.id,
  status: row.status,
  requested_Date: row.requestedAt.toISOString(),
  due_Date: row.dueAt.toISOString(),
  cancelled_Date: row.cancelledAt?.toISOString() ?? null,
});

const isUniqueViolation = (error: unknown): boolean => {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: string }).code === "23505") return true;
  }
  return false;
};

/** KVKK: a company's request to be deleted, its 30-day grace period, and the deletion itself. */
export class PrivacyService {
  constructor(private readonly ctx: AppContext) {}

  private get db(): Db {
    return this.ctx.database.db;
  }

  /** The company's latest deletion request, or null when it never asked. */
  async status(companyId: number): Promise<DeletionStatus | null> {
    const [row] = await this.db
      .select()
      .from(companyDeletions)
      .where(eq(companyDeletions.companyId, companyId))
      .orderBy(desc(companyDeletions.id))
      .limit(1);
    return row ? toStatus(row) : null;
  }

  /**
   * Records the request and queues the deletion for the end of the grace period, in one
   * transaction; the user confirms with their current password.
   */
  async request(companyId: number, userId: number, password: string): Promise<DeletionStatus> {
    const [user] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.id, userId), eq(users.companyId, companyId)));
    if (!user || !(await verifyPassword(user.passwordHash, password))) {
      throw AppError.validation([{ field: "password", message: message("privacy.passwordIncorrect") }]);
    }
    const [company] = await this.db.select().from(companies).where(eq(companies.id, companyId));
    if (!company) throw AppError.notFound();
    const now = this.ctx.clock.now();
    const dueAt = new Date(now.getTime() + DELETION_GRACE_DAYS * DAY_MS);
    try {
      const row = await this.db.transaction(async (tx) => {
        const [created] = await tx
          .insert(companyDeletions)
          .values({ companyId, requestedBy: userId, requestedAt: now, dueAt })
          .returning();
        await this.enqueue(tx, created!);
        const date = formatDate(dueAt);
        await this.ctx.mailer.enqueue(tx, this.ctx.queue, {
          to: user.email,
          subject: message("privacy.mailRequestedSubject"),
          body: message("privacy.mailRequestedBody", {
            name: user.firstName,
            company: company.name,
            date,
            link: `${this.ctx.config.publicUrl}/account/privacy`,
          }),
        });
        return created!;
      });
      this.ctx.logger.info({ companyId, deletionId: row.id, dueAt }, "company deletion requested");
      return toStatus(row);
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, "privacy.alreadyPending");
      throw error;
    }
  }

  /** Cancels a pending request of this company; another company's id is not found. */
  async cancel(companyId: number, id: number, userId: number): Promise<DeletionStatus> {
    const [row] = await this.db
      .select()
      .from(companyDeletions)
      .where(and(eq(companyDeletions.id, id), eq(companyDeletions.companyId, companyId)));
    if (!row) throw AppError.notFound();
    const now = this.ctx.clock.now();
    const [cancelled] = await this.db
      .update(companyDeletions)
      .set({ status: "cancelled", cancelledAt: now, cancelledBy: userId })
      .where(and(eq(companyDeletions.id, id), eq(companyDeletions.status, "pending")))
      .returning();
    // The queued job stays: on its date it finds the request cancelled and does nothing.
    if (!cancelled) throw new AppError(409, "privacy.notPending");
    const [user] = await this.db.select().from(users).where(eq(users.id, userId));
    const [company] = await this.db.select().from(companies).where(eq(companies.id, companyId));
    if (user && company) {
      await this.db.transaction((tx) =>
        this.ctx.mailer.enqueue(tx, this.ctx.queue, {
          to: user.email,
          subject: message("privacy.mailCancelledSubject"),
          body: message("privacy.mailCancelledBody", {
            name: user.firstName,
            company: company.name,
            link: this.ctx.config.publicUrl,
          }),
        }),
      );
    }
    this.ctx.logger.info({ companyId, deletionId: id }, "company deletion cancelled");
    return toStatus(cancelled);
  }

  /** The support console's list: every pending request, the soonest first. */
  async pending(): Promise<SupportDeletion[]> {
    const now = this.ctx.clock.now().getTime();
    const rows = await this.db
      .select({
        row: companyDeletions,
        companyName: companies.name,
        requestedBy: users.email,
      })
      .from(companyDeletions)
      .innerJoin(companies, eq(companies.id, companyDeletions.companyId))
      .leftJoin(users, eq(users.id, companyDeletions.requestedBy))
      .where(eq(companyDeletions.status, "pending"))
      .orderBy(asc(companyDeletions.dueAt));
    return rows.map(({ row, companyName, requestedBy }) => ({
      id: row.id,
      companyId: row.companyId,
      companyName,
      requestedBy,
      requested_Date: row.requestedAt.toISOString(),
      due_Date: row.dueAt.toISOString(),
      daysLeft: Math.max(0, Math.ceil((row.dueAt.getTime() - now) / DAY_MS)),
    }));
  }

  /**
   * The queued job's step. Deletes only a request still pending and due; one found early (a clock
   * moved back) is queued again for its date. Returns true when the company was deleted.
   */
  async perform(id: number): Promise<boolean> {
    const [row] = await this.db.select().from(companyDeletions).where(eq(companyDeletions.id, id));
    if (row?.status !== "pending") return false;
    const now = this.ctx.clock.now();
    if (row.dueAt.getTime() > now.getTime()) {
      await this.db.transaction((tx) => this.enqueue(tx, row));
      return false;
    }
    const { companyId } = row;
    const removed = await this.db.transaction(async (tx) => {
      // Lock the request: a cancel racing with the job either wins before, or finds it completed.
      const [locked] = await tx
        .select()
        .from(companyDeletions)
        .where(and(eq(companyDeletions.id, id), eq(companyDeletions.status, "pending")))
        .for("update");
      if (!locked) return null;
      const emails = (
        await tx.select({ email: users.email }).from(users).where(eq(users.companyId, companyId))
      ).map((u) => u.email);
      const count = async (table: string, query: Promise<unknown[]>) =>
        [table, (await query).length] as const;
      const e = engineSchema;
      const counts = [
        // Connections first: their sealed credentials, and with them (cascade) the ledgers.
        await count(
          "connections",
          tx
            .delete(e.connections)
            .where(eq(e.connections.companyId, companyId))
            .returning({ id: e.connections.id }),
        ),
        await count(
          "syncCursors",
          tx
            .delete(e.syncCursors)
            .where(eq(e.syncCursors.companyId, companyId))
            .returning({ stream: e.syncCursors.stream }),
        ),
        await count(
          "supportActions",
          tx
            .delete(supportActions)
            .where(eq(supportActions.companyId, companyId))
            .returning({ id: supportActions.id }),
        ),
        // Mail bodies and sign-in attempts carry the users' addresses and names.
        await count(
          "mails",
          emails.length > 0
            ? tx
                .delete(mailMessages)
                .where(
                  inArray(
                    sql`lower(${mailMessages.to})`,
                    emails.map((m) => m.toLowerCase()),
                  ),
                )
                .returning({ id: mailMessages.id })
            : Promise.resolve([]),
        ),
        await count(
          "loginAttempts",
          emails.length > 0
            ? tx
                .delete(loginAttempts)
                .where(
                  inArray(
                    sql`lower(${loginAttempts.email})`,
                    emails.map((m) => m.toLowerCase()),
                  ),
                )
                .returning({ id: loginAttempts.id })
            : Promise.resolve([]),
        ),
        await count(
          "users",
          tx.delete(users).where(eq(users.companyId, companyId)).returning({ id: users.id }),
        ),
        // The company row takes everything else with it (ON DELETE CASCADE): jobs, runs, failed
        // tasks, orders, notifications, settings, licences, activities, tickets, matchings.
        await count(
          "company",
          tx.delete(companies).where(eq(companies.id, companyId)).returning({ id: companies.id }),
        ),
      ];
      const removed = Object.fromEntries(counts);
      await tx
        .update(companyDeletions)
        .set({ status: "completed", completedAt: now, removed })
        .where(eq(companyDeletions.id, id));
      return removed;
    });
    if (!removed) return false;
    forgetSessions(this.ctx, { companyId });
    // Ticket files live on disk, outside the transaction; a leftover folder is retried by nothing,
    // so failures are logged for the operator.
    await rm(resolve(this.ctx.config.dataDir, "tickets", String(companyId)), {
      recursive: true,
      force: true,
    }).catch((error) =>
      this.ctx.logger.error({ err: error, companyId }, "ticket files of a deleted company not removed"),
    );
    this.ctx.logger.info({ companyId, deletionId: id, removed }, "company deleted (KVKK request)");
    return true;
  }

  /** One queue job per request, keyed by its id, held back until the request is due. */
  private async enqueue(tx: Tx, row: DeletionRow) {
    await this.ctx.queue.send(
      COMPANY_DELETION_QUEUE,
      { deletionId: row.id },
      { db: txExecutor(tx), startAfter: row.dueAt, retryLimit: 10, retryBackoff: true },
    );
  }
}

/** The worker that carries out due deletions (every process that runs workers). */
export async function startCompanyDeletionWorker(ctx: AppContext): Promise<void> {
  const service = new PrivacyService(ctx);
  await ctx.queue.boss.work<{ deletionId: number }>(
    COMPANY_DELETION_QUEUE,
    { pollingIntervalSeconds: 30 },
    async (jobs) => {
      for (const job of jobs) await service.perform(job.data.deletionId);
    },
  );
}
