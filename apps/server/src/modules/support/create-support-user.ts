import { EMAIL_PATTERN } from "@ep/contracts";
import { eq, sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import type { Db } from "../../platform/db/database.ts";
import { users } from "../../platform/db/schema.ts";
import { hashPassword } from "../../platform/security/passwords.ts";

/**
 * Creates (or resets the password of) a support-team account. Only this function makes role
 * 'support'; registration always makes company users. Refuses an address a company user holds.
 */
export async function createSupportUser(
  db: Db,
  input: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<{ id: number; created: boolean }> {
  const email = input.email.trim();
  if (!EMAIL_PATTERN.test(email)) throw new Error(`not a valid e-mail address: ${email}`);
  if (input.password.length < 8 || input.password.length > 50) {
    throw new Error("the password must be 8 to 50 characters");
  }
  const passwordHash = await hashPassword(input.password);
  const [existing] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`);
  if (existing) {
    if (existing.role !== "support") throw new Error(`${email} belongs to a company account`);
    await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, existing.id));
    return { id: existing.id, created: false };
  }
  const [row] = await db
    .insert(users)
    .values({
      companyId: null,
      email,
      passwordHash,
      firstName: input.firstName ?? "Destek",
      lastName: input.lastName ?? "Ekibi",
      role: "support",
    })
    .returning({ id: users.id });
  return { id: row!.id, created: true };
}

/** SUPPORT_EMAIL / SUPPORT_PASSWORD: the first support account of a fresh installation. */
export async function ensureSupportAccount(
  ctx: Pick<AppContext, "database" | "logger">,
  account: { email: string; password: string },
): Promise<void> {
  try {
    const result = await createSupportUser(ctx.database.db, account);
    ctx.logger.info({ email: account.email, created: result.created }, "support account ready");
  } catch (error) {
    // Another process made it at the same moment, or the address is a company's: say so, start anyway.
    ctx.logger.warn({ err: error, email: account.email }, "support account from SUPPORT_EMAIL not set up");
  }
}
