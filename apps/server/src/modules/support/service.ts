import type {
  Announcement,
  CreateAnnouncementInput,
  SupportCompany,
  SupportLicenseUpdate,
} from "@ep/contracts";
import { engineSchema } from "@ep/engine";
import { and, count, eq, inArray, ne, sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { companies, licenses, users } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { insertAnnouncement, latestAnnouncements } from "../announcements/repository.ts";
import { tickets } from "../tickets/schema.ts";
import { listSupportActions, recordSupportAction, toRunSummary } from "./repository.ts";

const LAST_RUNS = 5;

/** The console's company overview, licences and announcements. */
export class SupportService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  async companies(searchKey: string | undefined): Promise<SupportCompany[]> {
    const key = searchKey?.trim();
    const rows = await this.db
      .select()
      .from(companies)
      .where(key ? sql`${companies.name} ilike ${`%${key.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : undefined)
      .orderBy(companies.name)
      .limit(200);
    if (rows.length === 0) return [];
    const ids = rows.map((c) => c.id);
    const { connections, jobRuns, jobErrorReports } = engineSchema;
    const [owners, conns, runs, failed, open, lics] = await Promise.all([
      this.db
        .select({ companyId: users.companyId, email: users.email })
        .from(users)
        .where(inArray(users.companyId, ids))
        .orderBy(users.id),
      this.db.select().from(connections).where(inArray(connections.companyId, ids)),
      // The newest runs per company, via a window over each company's runs.
      this.db
        .select()
        .from(
          this.db
            .select({
              id: jobRuns.id,
              companyId: jobRuns.companyId,
              jobName: jobRuns.jobName,
              jobType: jobRuns.jobType,
              status: jobRuns.status,
              queuedAt: jobRuns.queuedAt,
              finishedAt: jobRuns.finishedAt,
              rank: sql<number>`row_number() over (partition by ${jobRuns.companyId} order by ${jobRuns.id} desc)`.as(
                "rank",
              ),
            })
            .from(jobRuns)
            .where(inArray(jobRuns.companyId, ids))
            .as("ranked"),
        )
        .where(sql`rank <= ${LAST_RUNS}`),
      this.db
        .select({ companyId: jobErrorReports.companyId, n: count() })
        .from(jobErrorReports)
        .where(and(inArray(jobErrorReports.companyId, ids), eq(jobErrorReports.status, "Open")))
        .groupBy(jobErrorReports.companyId),
      this.db
        .select({ companyId: tickets.companyId, n: count() })
        .from(tickets)
        .where(and(inArray(tickets.companyId, ids), ne(tickets.status, 3)))
        .groupBy(tickets.companyId),
      this.db.select().from(licenses).where(inArray(licenses.companyId, ids)).orderBy(licenses.id),
    ]);
    const failedBy = new Map(failed.map((f) => [f.companyId, f.n]));
    const openBy = new Map(open.map((f) => [f.companyId, f.n]));
    return rows.map((c) => ({
      id: c.id,
      name: c.name,
      created_Date: c.createdAt.toISOString(),
      userEmail: owners.find((o) => o.companyId === c.id)?.email ?? null,
      connections: conns
        .filter((k) => k.companyId === c.id)
        .map((k) => ({
          kind: k.kind,
          systemType: k.systemType,
          lastTestOk: k.lastTestOk,
          lastTest_Date: k.lastTestAt?.toISOString() ?? null,
          lastTestMessage: k.lastTestMessage,
        })),
      lastRuns: runs
        .filter((r) => r.companyId === c.id)
        .sort((a, b) => b.id - a.id)
        .map(toRunSummary),
      failedTaskCount: failedBy.get(c.id) ?? 0,
      openTicketCount: openBy.get(c.id) ?? 0,
      licenses: lics
        .filter((l) => l.companyId === c.id)
        .map((l) => ({
          id: l.id,
          name: l.name,
          productType: l.productType,
          isTrial: l.isTrial,
          expire_date: l.expiresAt.toISOString(),
        })),
    }));
  }

  /** Extends a licence by days (from today if it already ran out) or sets its end date. */
  async updateLicense(supportUserId: number, licenseId: number, input: SupportLicenseUpdate) {
    const [license] = await this.db.select().from(licenses).where(eq(licenses.id, licenseId));
    if (!license) throw AppError.notFound();
    const now = this.ctx.clock.now();
    let expiresAt = license.expiresAt;
    if (input.expiresAt) expiresAt = new Date(input.expiresAt);
    if (input.extendDays) {
      const from = expiresAt.getTime() > now.getTime() ? expiresAt : now;
      expiresAt = new Date(from.getTime() + input.extendDays * 86_400_000);
    }
    const isTrial = input.isTrial ?? license.isTrial;
    await this.db.transaction(async (tx) => {
      await tx.update(licenses).set({ expiresAt, isTrial }).where(eq(licenses.id, licenseId));
      await recordSupportAction(tx, {
        supportUserId,
        action: "license.update",
        companyId: license.companyId,
        details: {
          licenseId,
          productType: license.productType,
          from: license.expiresAt.toISOString(),
          to: expiresAt.toISOString(),
          isTrial,
        },
      });
    });
    return { id: licenseId, expire_date: expiresAt.toISOString(), isTrial };
  }

  announcements(): Promise<Announcement[]> {
    return latestAnnouncements(this.db, 50);
  }

  async createAnnouncement(supportUserId: number, input: CreateAnnouncementInput): Promise<Announcement> {
    return this.db.transaction(async (tx) => {
      const row = await insertAnnouncement(tx, {
        type: input.type,
        content: input.content,
        date: input.date ? new Date(input.date) : this.ctx.clock.now(),
        createdBy: supportUserId,
      });
      await recordSupportAction(tx, {
        supportUserId,
        action: "announcement.create",
        details: { announcementId: row.id, type: row.type },
      });
      return { id: row.id, created_date: row.date.toISOString(), type: row.type, content: row.content };
    });
  }

  latestActions() {
    return listSupportActions(this.db, 100);
  }
}
