import {
  type CreateTicketInput,
  message,
  type PagedList,
  SUPPORT_ANSWERED_BY,
  type SupportTicket,
  type SupportTicketDetail,
  TICKET_AUTO_CLOSE_MS,
  type Ticket,
  type TicketCategory,
  type TicketListQuery,
  type TicketReplyInput,
  TicketStatus,
} from "@ep/contracts";
import { engineSchema, notifyCompany } from "@ep/engine";
import { and, asc, eq, inArray, lte, type SQL, sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { companies, users } from "../../platform/db/schema.ts";
import type { Tx } from "../../platform/db/tx-sql.ts";
import type { AuthInfo } from "../../platform/http/auth.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { recordSupportAction, toRunSummary } from "../support/repository.ts";
import { AttachmentStore, checkUploads, type StoredFile, type Upload } from "./attachments.ts";
import * as repo from "./repository.ts";
import { type TicketRow, ticketAttachments, ticketCategories, ticketReplies, tickets } from "./schema.ts";

type Paging = { pageNumber: number; pageSize: number };

/** Tickets for both sides: the company's own calls and the support console's. */
export class TicketService {
  readonly files: AttachmentStore;

  constructor(private readonly ctx: AppContext) {
    this.files = new AttachmentStore(ctx.config.dataDir);
  }

  private get db() {
    return this.ctx.database.db;
  }

  categories(parentId: number | null): Promise<TicketCategory[]> {
    return repo.listCategories(this.db, parentId);
  }

  async create(
    auth: AuthInfo,
    companyId: number,
    input: CreateTicketInput,
    uploads: Upload[],
  ): Promise<Ticket> {
    const checked = checkUploads(uploads);
    const category = await repo.findCategory(this.db, input.categoryId);
    if (!category)
      throw AppError.validation([{ field: "categoryId", message: message("tickets.categoryRequired") }]);
    const link = await this.linkedRun(companyId, input);
    const stored = await this.files.save(companyId, checked);
    try {
      const row = await this.db.transaction(async (tx) => {
        const now = this.ctx.clock.now();
        const [ticket] = await tx
          .insert(tickets)
          .values({
            companyId,
            userId: auth.userId,
            categoryId: category.id,
            subject: input.subject,
            status: TicketStatus.Open,
            jobRunId: link.jobRunId,
            jobErrorReportId: link.jobErrorReportId,
            createdAt: now,
            updatedAt: now,
          })
          .returning();
        await this.addReply(tx, ticket!, input.message, auth.userId, null, stored, now);
        await this.mailSupportTeam(tx, ticket!, category.name, input.message);
        return ticket!;
      });
      return (await repo.toTickets(this.db, [row]))[0]!;
    } catch (error) {
      await this.files.remove(stored);
      throw error;
    }
  }

  /**
   * A ticket the product opens for the user (e.g. "we will connect your system"), inside the
   * caller's transaction: it appears in their list and reaches the support team like their own.
   */
  async openOnBehalf(
    tx: Tx,
    input: { companyId: number; userId: number; categoryId: number; subject: string; message: string },
  ): Promise<number> {
    const [category] = await tx
      .select()
      .from(ticketCategories)
      .where(eq(ticketCategories.id, input.categoryId));
    const now = this.ctx.clock.now();
    const [ticket] = await tx
      .insert(tickets)
      .values({
        companyId: input.companyId,
        userId: input.userId,
        categoryId: category?.id ?? null,
        subject: input.subject,
        status: TicketStatus.Open,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await this.addReply(tx, ticket!, input.message, input.userId, null, [], now);
    await this.mailSupportTeam(tx, ticket!, category?.name ?? "", input.message);
    return ticket!.id;
  }

  /** A ticket opened from a failed task carries that task's run; both must be the company's own. */
  private async linkedRun(companyId: number, input: CreateTicketInput) {
    let jobRunId = input.jobRunId ?? null;
    const jobErrorReportId = input.jobErrorReportId ?? null;
    if (jobErrorReportId !== null) {
      const { jobErrorReports } = engineSchema;
      const [failed] = await this.db
        .select({ runId: jobErrorReports.jobRunId })
        .from(jobErrorReports)
        .where(and(eq(jobErrorReports.id, jobErrorReportId), eq(jobErrorReports.companyId, companyId)));
      if (!failed) throw AppError.notFound();
      jobRunId ??= failed.runId;
    }
    if (jobRunId !== null) {
      const { jobRuns } = engineSchema;
      const [run] = await this.db
        .select({ id: jobRuns.id })
        .from(jobRuns)
        .where(and(eq(jobRuns.id, jobRunId), eq(jobRuns.companyId, companyId)));
      if (!run) throw AppError.notFound();
    }
    return { jobRunId, jobErrorReportId };
  }

  private async addReply(
    tx: Tx,
    ticket: TicketRow,
    text: string,
    answeredBy: number,
    supportUserId: number | null,
    stored: StoredFile[],
    now: Date,
  ) {
    const [reply] = await tx
      .insert(ticketReplies)
      .values({ ticketId: ticket.id, message: text, answeredBy, supportUserId, createdAt: now })
      .returning();
    if (stored.length > 0) {
      await tx
        .insert(ticketAttachments)
        .values(stored.map((f) => ({ ...f, ticketId: ticket.id, replyId: reply!.id, createdAt: now })));
    }
    return reply!;
  }

  private async mailSupportTeam(tx: Tx, ticket: TicketRow, categoryName: string, text: string) {
    const team = await tx.select({ email: users.email }).from(users).where(eq(users.role, "support"));
    if (team.length === 0) return;
    const [row] = await tx
      .select({ company: companies.name, first: users.firstName, last: users.lastName })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(eq(users.id, ticket.userId));
    const params = {
      id: ticket.id,
      subject: ticket.subject,
      company: row?.company ?? "",
      name: row ? `${row.first} ${row.last}` : "",
      category: categoryName,
      message: text,
      link: `${this.ctx.config.publicUrl}/support/tickets/${ticket.id}`,
    };
    for (const member of team) {
      await this.ctx.mailer.enqueue(tx, this.ctx.queue, {
        to: member.email,
        subject: message("tickets.mailNewSubject", params),
        body: message("tickets.mailNewBody", params),
      });
    }
  }

  async list(companyId: number, paging: Paging, query: TicketListQuery): Promise<PagedList<Ticket>> {
    const where = and(
      eq(tickets.companyId, companyId),
      query.status === undefined ? undefined : eq(tickets.status, query.status),
      repo.searchCondition(query.searchKey),
    );
    const page = await repo.pageTickets(
      this.db,
      where,
      repo.orderByCreated(query.orderBy),
      paging.pageNumber,
      paging.pageSize,
    );
    return {
      dataList: await repo.toTickets(this.db, page.rows),
      totalCount: page.totalCount,
      pageNumber: paging.pageNumber,
      pageSize: paging.pageSize,
    };
  }

  async get(companyId: number, id: number): Promise<Ticket> {
    const row = await repo.findTicket(this.db, id, companyId);
    if (!row) throw AppError.notFound();
    return (await repo.toTickets(this.db, [row]))[0]!;
  }

  countByStatus(companyId: number, status: number): Promise<number> {
    return repo.countByStatus(this.db, companyId, status);
  }

  /** The customer writes: the ticket now waits for support (1 'Cevap Bekliyor'). */
  async reply(
    auth: AuthInfo,
    companyId: number,
    input: TicketReplyInput,
    uploads: Upload[],
  ): Promise<Ticket> {
    const checked = checkUploads(uploads);
    const ticket = await repo.findTicket(this.db, input.ticketId, companyId);
    if (!ticket) throw AppError.notFound();
    if (ticket.status === TicketStatus.Closed) throw new AppError(400, "tickets.ticketClosed");
    const stored = await this.files.save(companyId, checked);
    try {
      await this.db.transaction(async (tx) => {
        const now = this.ctx.clock.now();
        const [open] = await tx
          .update(tickets)
          .set({ status: TicketStatus.AwaitingAnswer, updatedAt: now })
          .where(and(eq(tickets.id, ticket.id), sql`${tickets.status} <> ${TicketStatus.Closed}`))
          .returning();
        if (!open) throw new AppError(400, "tickets.ticketClosed");
        await this.addReply(tx, open, input.message, auth.userId, null, stored, now);
      });
    } catch (error) {
      await this.files.remove(stored);
      throw error;
    }
    return this.get(companyId, ticket.id);
  }

  /** `update-state`: the customer may only close (status 3). */
  async updateState(companyId: number, ticketId: number, status: number): Promise<Ticket> {
    if (status !== TicketStatus.Closed) throw new AppError(400, "tickets.statusInvalid");
    const ticket = await repo.findTicket(this.db, ticketId, companyId);
    if (!ticket) throw AppError.notFound();
    await this.close(ticket, "customer");
    return this.get(companyId, ticketId);
  }

  private async close(ticket: TicketRow, by: "customer" | "support", tx?: Tx): Promise<boolean> {
    const now = this.ctx.clock.now();
    const updated = await (tx ?? this.db)
      .update(tickets)
      .set({ status: TicketStatus.Closed, closedAt: now, closedBy: by, updatedAt: now })
      .where(and(eq(tickets.id, ticket.id), sql`${tickets.status} <> ${TicketStatus.Closed}`))
      .returning({ id: tickets.id });
    return updated.length > 0;
  }

  attachment(ticketId: number, attachmentId: number) {
    return repo.findAttachment(this.db, ticketId, attachmentId);
  }

  /* ---------- support console ---------- */

  async inbox(
    paging: Paging,
    query: { status?: number; searchKey?: string; companyId?: number },
  ): Promise<PagedList<SupportTicket>> {
    const where = and(
      query.status === undefined ? undefined : eq(tickets.status, query.status),
      query.companyId === undefined ? undefined : eq(tickets.companyId, query.companyId),
      repo.searchCondition(query.searchKey),
    );
    // Waiting on us first (Açık, Cevap Bekliyor), then answered, then closed; oldest first within each.
    const order: SQL[] = [
      sql`case ${tickets.status} when 0 then 0 when 1 then 0 when 2 then 1 else 2 end`,
      asc(tickets.updatedAt),
    ];
    const page = await repo.pageTickets(this.db, where, order, paging.pageNumber, paging.pageSize);
    return {
      dataList: await this.toSupportTickets(page.rows),
      totalCount: page.totalCount,
      pageNumber: paging.pageNumber,
      pageSize: paging.pageSize,
    };
  }

  private async toSupportTickets(rows: TicketRow[]): Promise<SupportTicket[]> {
    const base = await repo.toTickets(this.db, rows);
    const companyIds = [...new Set(rows.map((r) => r.companyId))];
    const names =
      companyIds.length === 0
        ? []
        : await this.db
            .select({ id: companies.id, name: companies.name })
            .from(companies)
            .where(inArray(companies.id, companyIds));
    const nameById = new Map(names.map((c) => [c.id, c.name]));
    return base.map((t, i) => ({
      ...t,
      company: { id: rows[i]!.companyId, name: nameById.get(rows[i]!.companyId) ?? "" },
      lastSupportReply_Date: rows[i]!.lastSupportReplyAt?.toISOString() ?? null,
      closedBy: rows[i]!.closedBy,
    }));
  }

  async supportDetail(id: number): Promise<SupportTicketDetail> {
    const row = await repo.findTicket(this.db, id, null);
    if (!row) throw AppError.notFound();
    const [ticket] = await this.toSupportTickets([row]);
    const { jobRuns, jobErrorReports } = engineSchema;
    const [run] = row.jobRunId
      ? await this.db
          .select()
          .from(jobRuns)
          .where(and(eq(jobRuns.id, row.jobRunId), eq(jobRuns.companyId, row.companyId)))
      : [];
    const [failed] = row.jobErrorReportId
      ? await this.db
          .select()
          .from(jobErrorReports)
          .where(
            and(eq(jobErrorReports.id, row.jobErrorReportId), eq(jobErrorReports.companyId, row.companyId)),
          )
      : [];
    return {
      ...ticket!,
      run: run ? { ...toRunSummary(run), report: run.report } : null,
      failedTask: failed
        ? {
            id: failed.id,
            jobType: failed.jobType,
            entityKey: failed.entityKey,
            errorType: failed.errorType,
            message: failed.message,
            payload: failed.payload ?? null,
            status: failed.status,
          }
        : null,
    };
  }

  /** Support answers: the customer sees answeredBy -1, status 2, a notification and a mail. */
  async supportReply(supportUserId: number, ticketId: number, text: string): Promise<SupportTicketDetail> {
    const ticket = await repo.findTicket(this.db, ticketId, null);
    if (!ticket) throw AppError.notFound();
    if (ticket.status === TicketStatus.Closed) throw new AppError(400, "tickets.ticketClosed");
    await this.db.transaction(async (tx) => {
      const now = this.ctx.clock.now();
      const [open] = await tx
        .update(tickets)
        .set({ status: TicketStatus.Answered, lastSupportReplyAt: now, updatedAt: now })
        .where(and(eq(tickets.id, ticket.id), sql`${tickets.status} <> ${TicketStatus.Closed}`))
        .returning();
      if (!open) throw new AppError(400, "tickets.ticketClosed");
      const reply = await this.addReply(tx, open, text, SUPPORT_ANSWERED_BY, supportUserId, [], now);
      const params = { id: open.id, subject: open.subject };
      await notifyCompany(
        tx,
        open.companyId,
        "Info",
        message("tickets.notifyAnswered", params),
        // The ticket's id leads: the notification opens that ticket (see notifications' linkOf).
        `ticket:${open.id}:reply:${reply.id}`,
      );
      await this.mailCustomer(tx, open, "answered", text);
      await recordSupportAction(tx, {
        supportUserId,
        action: "ticket.reply",
        companyId: open.companyId,
        ticketId: open.id,
        details: { replyId: reply.id },
      });
    });
    return this.supportDetail(ticketId);
  }

  async supportClose(supportUserId: number, ticketId: number): Promise<SupportTicketDetail> {
    const ticket = await repo.findTicket(this.db, ticketId, null);
    if (!ticket) throw AppError.notFound();
    await this.db.transaction(async (tx) => {
      const closed = await this.close(ticket, "support", tx);
      await recordSupportAction(tx, {
        supportUserId,
        action: "ticket.close",
        companyId: ticket.companyId,
        ticketId: ticket.id,
        details: { previousStatus: ticket.status, changed: closed },
      });
    });
    return this.supportDetail(ticketId);
  }

  private async mailCustomer(tx: Tx, ticket: TicketRow, kind: "answered" | "autoClosed", text = "") {
    const [user] = await tx
      .select({ email: users.email, first: users.firstName, last: users.lastName })
      .from(users)
      .where(eq(users.id, ticket.userId));
    if (!user) return;
    const params = {
      id: ticket.id,
      subject: ticket.subject,
      name: `${user.first} ${user.last}`,
      message: text,
      link:
        kind === "answered"
          ? `${this.ctx.config.publicUrl}/tickets/${ticket.id}`
          : `${this.ctx.config.publicUrl}/tickets/create`,
    };
    await this.ctx.mailer.enqueue(tx, this.ctx.queue, {
      to: user.email,
      subject: message(
        kind === "answered" ? "tickets.mailAnsweredSubject" : "tickets.mailAutoClosedSubject",
        params,
      ),
      body: message(kind === "answered" ? "tickets.mailAnsweredBody" : "tickets.mailAutoClosedBody", params),
    });
  }

  /**
   * Closes every ticket support answered more than 24 hours ago with no customer reply since
   * (a customer reply moves the ticket to 1, so status 2 means no reply). Safe to run twice at once:
   * each close is a conditional update, and only the run that changed the row sends the mail.
   */
  async autoClose(): Promise<number> {
    const now = this.ctx.clock.now();
    const cutoff = new Date(now.getTime() - TICKET_AUTO_CLOSE_MS);
    const due = await this.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.status, TicketStatus.Answered), lte(tickets.lastSupportReplyAt, cutoff)))
      .limit(500);
    let closed = 0;
    for (const ticket of due) {
      await this.db.transaction(async (tx) => {
        const [row] = await tx
          .update(tickets)
          .set({ status: TicketStatus.Closed, closedAt: now, closedBy: "auto", updatedAt: now })
          .where(
            and(
              eq(tickets.id, ticket.id),
              eq(tickets.status, TicketStatus.Answered),
              lte(tickets.lastSupportReplyAt, cutoff),
            ),
          )
          .returning();
        if (!row) return;
        closed++;
        await this.mailCustomer(tx, row, "autoClosed");
      });
    }
    if (closed > 0) this.ctx.logger.info({ closed }, "answered tickets closed after 24 hours");
    return closed;
  }
}
