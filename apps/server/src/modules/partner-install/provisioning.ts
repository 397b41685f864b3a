/**
 * Partner provisioning, for any partner that brings us a customer (Ideasoft's app store today, Logo
 * sign-on later): find the company by (partner, the partner's id of the customer), or create company,
 * first user and licences in one transaction. Each failing step has its own install error code
 * (spec section 8), so the landing screen can say which.
 */

import { randomBytes } from "node:crypto";
import type { InstallErrorCode } from "@ep/contracts";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { companies, licenses, partnerAccounts, users } from "../../platform/db/schema.ts";
import { hashPassword } from "../../platform/security/passwords.ts";

export type { InstallErrorCode };

export class InstallError extends Error {
  constructor(
    readonly code: InstallErrorCode,
    message: string,
    options?: { cause?: unknown; details?: Record<string, string> },
  ) {
    super(message, options);
    this.details = options?.details ?? {};
  }
  /** Words for the merchant's message (the system's name, the unset settings). */
  readonly details: Record<string, string>;
}

export interface LicenceGrant {
  productType: string;
  name: string;
  description: string;
  imageFileName: string;
  expiresAt: Date;
}

export interface ProvisionInput {
  partner: string;
  externalId: string;
  company: { name: string; erpType: number; ecommerceType: number };
  user: { email: string; firstName: string; lastName: string; phone?: string };
  /** The purchased package, resolved to licences; called only for a new company. */
  licences: () => LicenceGrant[];
}

export interface Provisioned {
  companyId: number;
  userId: number;
  /** True when this call made the company (a first install). */
  created: boolean;
}

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

async function step<T>(code: InstallErrorCode, what: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InstallError) throw error;
    throw new InstallError(code, `${what} failed`, { cause: error });
  }
}

/**
 * The company of (partner, externalId) and the user to sign in: its recorded user, else the company's
 * first user. A company whose users are all gone is `user_not_found`.
 */
export async function findPartnerCompany(
  db: Db | Tx,
  partner: string,
  externalId: string,
): Promise<{ companyId: number; userId: number } | undefined> {
  const [row] = await db
    .select()
    .from(partnerAccounts)
    .where(and(eq(partnerAccounts.partner, partner), eq(partnerAccounts.externalId, externalId)));
  if (!row) return undefined;
  const [user] = row.userId
    ? await db.select({ id: users.id }).from(users).where(eq(users.id, row.userId))
    : await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.companyId, row.companyId))
        .orderBy(users.id)
        .limit(1);
  if (!user) throw new InstallError("user_not_found", `no user for ${partner} ${externalId}`);
  return { companyId: row.companyId, userId: user.id };
}

/** Find or create: a second install of the same store signs in to the first one's company. */
export async function findOrCreatePartnerCompany(
  db: Db,
  input: ProvisionInput,
  afterCreate?: (tx: Tx, created: Provisioned) => Promise<void>,
): Promise<Provisioned> {
  const existing = await findPartnerCompany(db, input.partner, input.externalId);
  if (existing) return { ...existing, created: false };
  const grants = await step("undefined_package_type_request", "package", async () => input.licences());
  // The merchant signs in through the partner; the password is random until they set one ("forgot password").
  const passwordHash = await hashPassword(randomBytes(24).toString("base64url"));
  try {
    return await db.transaction(async (tx) => {
      const [company] = await step("create_company_failure", "company", () =>
        tx.insert(companies).values(input.company).returning(),
      );
      const companyId = company!.id;
      const [user] = await step("create_user_failure", "user", () =>
        tx
          .insert(users)
          .values({
            companyId,
            email: input.user.email.trim(),
            passwordHash,
            firstName: input.user.firstName || "-",
            lastName: input.user.lastName || "-",
            phone: input.user.phone ?? "",
          })
          .returning(),
      );
      await step("get_license_failure", "licences", () =>
        tx.insert(licenses).values(grants.map((g) => ({ ...g, companyId, isTrial: false }))),
      );
      await step("create_company_failure", "partner link", () =>
        tx
          .insert(partnerAccounts)
          .values({ partner: input.partner, externalId: input.externalId, companyId, userId: user!.id }),
      );
      const out = { companyId, userId: user!.id, created: true };
      await afterCreate?.(tx, out);
      return out;
    });
  } catch (error) {
    // Two installs of one store racing: the unique index decides, the loser signs in to the winner's company.
    if (
      error instanceof InstallError &&
      error.code === "create_company_failure" &&
      isUniqueViolation(error.cause)
    ) {
      const again = await findPartnerCompany(db, input.partner, input.externalId);
      if (again) return { ...again, created: false };
    }
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === "23505" || e?.cause?.code === "23505";
}
