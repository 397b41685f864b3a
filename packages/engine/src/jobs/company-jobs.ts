import type { JobType } from "@ep/contracts";
import { eq } from "drizzle-orm";
import type { Executor } from "../db.ts";
import { jobs } from "../store/schema.ts";
import { JOB_DEFINITIONS } from "./catalog.ts";

/**
 * Gives a company its set of jobs (once both connections exist). Existing jobs keep their settings;
 * new ones start shortly, in dependency order (categories, products, then stock and prices).
 */
export async function ensureCompanyJobs(db: Executor, companyId: number, now: Date): Promise<void> {
  await insertJobs(db, JOB_DEFINITIONS, { companyId }, now);
}

/**
 * Inserts the jobs of `definitions` for `owner` (a company, and a channel's connection), enabled on
 * their default schedules, first runs staggered by the definitions' order; existing ones are kept.
 */
async function insertJobs(
  db: Executor,
  definitions: typeof JOB_DEFINITIONS,
  owner: { companyId: number; connectionId?: number },
  now: Date,
): Promise<void> {
  await db
    .insert(jobs)
    .values(
      definitions.map((d) => ({
        ...owner,
        type: d.type,
        name: d.name,
        isEnabled: true,
        schedule: d.defaultSchedule,
        nextRunAt: new Date(now.getTime() + d.order * 5_000),
      })),
    )
    .onConflictDoNothing();
}

export const companyJobs = (db: Executor, companyId: number) =>
  db.select().from(jobs).where(eq(jobs.companyId, companyId)).orderBy(jobs.id);

/**
 * What a marketplace channel's jobs do: its stock and prices from the ERP, its orders into the ERP, and its
 * orders' invoices as the shop's (marketplace orders are invoiced by the seller; the link goes back).
 */
export const CHANNEL_JOB_TYPES: readonly JobType[] = [
  "StockIntegration",
  "PriceIntegration",
  "OrderIntegration",
  "InvoiceIntegration",
];

/**
 * Gives a sales channel its own jobs (same names and schedules as the shop's, so the screens and icons
 * read them alike); existing ones keep their settings.
 */
export async function ensureChannelJobs(
  db: Executor,
  companyId: number,
  connectionId: number,
  now: Date,
  /** Which jobs; the listing job (ProductIntegration) is given only once a category is mapped. */
  types: readonly JobType[] = CHANNEL_JOB_TYPES,
): Promise<void> {
  const definitions = JOB_DEFINITIONS.filter((d) => types.includes(d.type));
  await insertJobs(db, definitions, { companyId, connectionId }, now);
}
