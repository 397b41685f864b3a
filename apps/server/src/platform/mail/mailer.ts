import { and, eq, isNotNull, lte, ne } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "pino";
import type { Database } from "../db/database.ts";
import { mailMessages } from "../db/schema.ts";
import { type Tx, txExecutor } from "../db/tx-sql.ts";
import type { Queue } from "../queue/queue.ts";
import { type Clock, systemClock } from "../time/clock.ts";

export const MAIL_QUEUE = "mail-send";
export const MAIL_BODY_EXPIRY_QUEUE = "mail-body-expiry";
/** `bodyExpiresAt`: when the body carries a link, its lifetime; the body is cleared after it. */
export type Mail = { to: string; subject: string; body: string; bodyExpiresAt?: Date };
/** What an expired body is replaced with: the operator still sees that a mail went, not the link. */
export const EXPIRED_BODY = "";

/**
 * Mail always goes through the queue: the request stores the message and enqueues it in the same
 * transaction; a worker sends it over SMTP, or files it in the outbox (table + log line) without SMTP.
 */
export class Mailer {
  private readonly transport: Transporter | undefined;

  constructor(
    private readonly database: Database,
    private readonly logger: Logger,
    smtpUrl: string | undefined,
    private readonly from: string,
    private readonly clock: Clock = systemClock,
  ) {
    // Bounded waits: a server that stops answering fails the send (pg-boss retries it) instead of
    // holding the mail worker, and every mail queued behind it, for nodemailer's default 10 minutes.
    this.transport = smtpUrl
      ? nodemailer.createTransport({
          url: smtpUrl,
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 30_000,
        })
      : undefined;
  }

  async enqueue(tx: Tx, queue: Queue, mail: Mail): Promise<void> {
    const [row] = await tx.insert(mailMessages).values(mail).returning({ id: mailMessages.id });
    await queue.send(MAIL_QUEUE, { id: row!.id }, { db: txExecutor(tx), retryLimit: 5, retryBackoff: true });
  }

  /** The queue worker's step for one message. Throws on SMTP failure so pg-boss retries it. */
  async deliver(id: number): Promise<void> {
    const { db } = this.database;
    const [mail] = await db.select().from(mailMessages).where(eq(mailMessages.id, id));
    if (!mail || mail.status === "sent" || mail.status === "outbox") return;
    if (mail.bodyExpiresAt && mail.bodyExpiresAt <= this.clock.now()) {
      // A link that expired while the mail waited (SMTP down) is not worth sending.
      await db
        .update(mailMessages)
        .set({ status: "failed", body: EXPIRED_BODY, error: "link expired before delivery" })
        .where(eq(mailMessages.id, id));
      return;
    }
    if (!this.transport) {
      await db
        .update(mailMessages)
        .set({ status: "outbox", sentAt: new Date() })
        .where(eq(mailMessages.id, id));
      // Never the body: it may hold a working reset link. The operator reads it in the outbox table.
      this.logger.info({ mailId: id, subject: mail.subject }, "mail written to outbox");
      return;
    }
    try {
      await this.transport.sendMail({ from: this.from, to: mail.to, subject: mail.subject, text: mail.body });
      await db
        .update(mailMessages)
        .set({ status: "sent", sentAt: new Date(), error: null })
        .where(eq(mailMessages.id, id));
    } catch (error) {
      await db
        .update(mailMessages)
        .set({ status: "failed", error: String(error) })
        .where(eq(mailMessages.id, id));
      throw error;
    }
  }

  /** Empties the bodies whose link has expired; answers how many. Delivered or not, the link is dead. */
  async clearExpiredBodies(): Promise<number> {
    const cleared = await this.database.db
      .update(mailMessages)
      .set({ body: EXPIRED_BODY })
      .where(
        and(
          isNotNull(mailMessages.bodyExpiresAt),
          lte(mailMessages.bodyExpiresAt, this.clock.now()),
          ne(mailMessages.body, EXPIRED_BODY),
        ),
      )
      .returning({ id: mailMessages.id });
    return cleared.length;
  }

  async startWorker(queue: Queue): Promise<void> {
    await queue.boss.work<{ id: number }>(MAIL_QUEUE, { pollingIntervalSeconds: 0.5 }, async (jobs) => {
      for (const job of jobs) await this.deliver(job.data.id);
    });
    // Once a minute for the whole cluster (pg-boss cron, singleton queue), like the ticket auto-close.
    const { boss } = queue;
    await boss.createQueue(MAIL_BODY_EXPIRY_QUEUE, { name: MAIL_BODY_EXPIRY_QUEUE, policy: "singleton" });
    await boss.schedule(MAIL_BODY_EXPIRY_QUEUE, "* * * * *", {}, { tz: "UTC" });
    await boss.work(MAIL_BODY_EXPIRY_QUEUE, { pollingIntervalSeconds: 0.5 }, async () => {
      const cleared = await this.clearExpiredBodies();
      if (cleared > 0) this.logger.info({ cleared }, "expired mail bodies cleared");
    });
  }
}
