import type { Account } from "@ep/contracts";
import { and, eq, gt, isNull, ne, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { companies, loginAttempts, oneTimeCodes, sessions, users } from "../../platform/db/schema.ts";
import type { Tx } from "../../platform/db/tx-sql.ts";

type Executor = Db | Tx;
export type UserRow = typeof users.$inferSelect;
type CompanyRow = typeof companies.$inferSelect;

export const findUserByEmail = async (db: Executor, email: string): Promise<UserRow | undefined> =>
  (await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`))[0];

export const findUserById = async (db: Executor, id: number): Promise<UserRow | undefined> =>
  (await db.select().from(users).where(eq(users.id, id)))[0];

export async function loadAccount(db: Executor, userId: number): Promise<Account | undefined> {
  const user = await findUserById(db, userId);
  if (!user) return undefined;
  const company = user.companyId
    ? (await db.select().from(companies).where(eq(companies.id, user.companyId)))[0]
    : undefined;
  return toAccount(user, company);
}

export function toAccount(user: UserRow, company: CompanyRow | undefined): Account {
  return {
    companyUser: {
      id: user.id,
      first_Name: user.firstName,
      last_Name: user.lastName,
      email: user.email,
      phone: user.phone,
      role: user.role,
      language: user.language,
    },
    company: company
      ? {
          id: company.id,
          company_Name: company.name,
          tax_Office: company.taxOffice,
          tax_Number: company.taxNumber,
          address: company.address,
          phone: company.phone,
          website: company.website,
          erpType: company.erpType,
          ecommerceType: company.ecommerceType,
          created_Date: company.createdAt.toISOString(),
        }
      : null,
  };
}

/** Failed sign-ins in the window, by e-mail and by address (the throttle and the adaptive captcha). */
export async function countRecentFailures(db: Executor, email: string, ip: string, since: Date) {
  const [row] = await db
    .select({
      byEmail: sql<number>`count(*) filter (where ${loginAttempts.email} = ${email})`.mapWith(Number),
      byIp: sql<number>`count(*) filter (where ${loginAttempts.ip} = ${ip})`.mapWith(Number),
    })
    .from(loginAttempts)
    .where(
      and(
        eq(loginAttempts.succeeded, false),
        gt(loginAttempts.createdAt, since),
        sql`(${loginAttempts.email} = ${email} or ${loginAttempts.ip} = ${ip})`,
      ),
    );
  return { byEmail: row?.byEmail ?? 0, byIp: row?.byIp ?? 0 };
}

export async function recordLoginAttempt(
  db: Executor,
  email: string,
  ip: string,
  succeeded: boolean,
  now: Date,
) {
  await db.insert(loginAttempts).values({ email, ip, succeeded, createdAt: now });
  // A good sign-in clears that e-mail's failures, so the captcha stops being demanded.
  if (succeeded) {
    await db
      .delete(loginAttempts)
      .where(and(eq(loginAttempts.email, email), eq(loginAttempts.succeeded, false)));
  }
}

/** Uses a one-time code atomically: the first caller gets the user id, every later one nothing. */
type CodePurpose = "password_reset" | "login";

/** A code of this purpose, unused and not expired at `now`. */
const usableCode = (codeHash: string, purpose: CodePurpose, now: Date) =>
  and(
    eq(oneTimeCodes.codeHash, codeHash),
    eq(oneTimeCodes.purpose, purpose),
    isNull(oneTimeCodes.usedAt),
    gt(oneTimeCodes.expiresAt, now),
  );

export async function consumeCode(db: Executor, purpose: CodePurpose, codeHash: string, now: Date) {
  const [row] = await db
    .update(oneTimeCodes)
    .set({ usedAt: now })
    .where(usableCode(codeHash, purpose, now))
    .returning({ userId: oneTimeCodes.userId });
  return row?.userId;
}

export async function isCodeUsable(db: Executor, purpose: CodePurpose, codeHash: string, now: Date) {
  const [row] = await db
    .select({ id: oneTimeCodes.id })
    .from(oneTimeCodes)
    .where(usableCode(codeHash, purpose, now));
  return Boolean(row);
}

export async function revokeSessions(db: Executor, userId: number, now: Date, exceptSessionId?: string) {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        exceptSessionId ? ne(sessions.id, exceptSessionId) : undefined,
      ),
    );
}
