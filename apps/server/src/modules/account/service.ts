import { randomUUID } from "node:crypto";
import {
  type Account,
  BusinessCode,
  EMAIL_PATTERN,
  type LoginRequest,
  type LoginResult,
  message,
  ProductType,
  type RegisterRequest,
  TURKISH_CHARACTERS,
  type UpdateAccountRequest,
  type UpdateCompanyRequest,
} from "@ep/contracts";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { captchaUses, companies, licenses, oneTimeCodes, sessions, users } from "../../platform/db/schema.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { hashCode, newCode } from "../../platform/security/codes.ts";
import { decoyHash, hashPassword, verifyPassword } from "../../platform/security/passwords.ts";
import { recordActivity } from "../activities/repository.ts";
import * as repo from "./repository.ts";

export const SESSION_TTL_MS = 24 * 60 * 60_000;
export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const THROTTLE_LIMIT = 10;
export const ADAPTIVE_CAPTCHA_AFTER = 3;
export const RESET_LINK_TTL_MS = 60 * 60_000;
export const LOGIN_CODE_TTL_MS = 5 * 60_000;
export const TRIAL_DAYS = 14;

const TRIAL_LICENSES = [
  {
    productType: ProductType.ErpIntegration,
    name: "ERP Entegrasyonu",
    description: "Ürün, stok, fiyat ve kategori aktarımı ile sipariş ve faturaların ERP'ye yazılması.",
    imageFileName: "erp-integration.svg",
  },
  {
    productType: ProductType.ECommerceIntegration,
    name: "E-Ticaret Entegrasyonu",
    description: "E-ticaret sitenizle ürün, stok, fiyat ve sipariş senkronizasyonu.",
    imageFileName: "ecommerce-integration.svg",
  },
] as const;

type RequestMeta = { ip: string; userAgent: string };

export class AccountService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }
  private now() {
    return this.ctx.clock.now();
  }

  /** Registration: company, first user and two 14-day trial licences, all or nothing. */
  async register(input: RegisterRequest): Promise<Account> {
    const email = input.email.trim();
    if (TURKISH_CHARACTERS.test(email)) {
      throw new AppError(400, "api.emailHasTurkishCharacters", BusinessCode.EmailHasTurkishCharacters);
    }
    if (!EMAIL_PATTERN.test(email) || email.length < 3 || email.length > 50) {
      throw new AppError(400, "api.invalidEmailFormat", BusinessCode.InvalidEmailFormat);
    }
    if (await repo.findUserByEmail(this.db, email)) {
      throw new AppError(409, "api.emailAlreadyRegistered", BusinessCode.EmailAlreadyRegistered);
    }
    const passwordHash = await hashPassword(input.password);
    const now = this.now();
    try {
      return await this.db.transaction(async (tx) => {
        const [company] = await tx
          .insert(companies)
          .values({ name: input.company_Name, erpType: input.erpType, ecommerceType: input.ecommerceType })
          .returning();
        const [user] = await tx
          .insert(users)
          .values({
            companyId: company!.id,
            email,
            passwordHash,
            firstName: input.first_Name,
            lastName: input.last_Name,
            phone: input.phone,
          })
          .returning();
        const expiresAt = new Date(now.getTime() + TRIAL_DAYS * 86_400_000);
        await tx
          .insert(licenses)
          .values(TRIAL_LICENSES.map((l) => ({ ...l, companyId: company!.id, isTrial: true, expiresAt })));
        await this.ctx.mailer.enqueue(tx, this.ctx.queue, {
          to: email,
          subject: message("mail.welcomeSubject"),
          body: message("mail.welcomeBody", {
            name: input.first_Name,
            company: input.company_Name,
            link: `${this.ctx.config.publicUrl}/account/login`,
          }),
        });
        return repo.toAccount(user!, company!);
      });
    } catch (error) {
      // Two registrations racing for one address: the unique index decides, the loser gets 105.
      if (isUniqueViolation(error)) {
        throw new AppError(409, "api.emailAlreadyRegistered", BusinessCode.EmailAlreadyRegistered);
      }
      throw error;
    }
  }

  async login(input: LoginRequest, meta: RequestMeta): Promise<LoginResult> {
    const email = input.email.trim().toLowerCase();
    const since = new Date(this.now().getTime() - THROTTLE_WINDOW_MS);
    const failures = await repo.countRecentFailures(this.db, email, meta.ip, since);
    if (failures.byEmail >= THROTTLE_LIMIT || failures.byIp >= THROTTLE_LIMIT) {
      throw new AppError(429, "api.tooManyLoginAttempts");
    }
    const mode = this.ctx.config.captcha;
    const captchaNeeded =
      mode === "required" || (mode === "adaptive" && failures.byEmail >= ADAPTIVE_CAPTCHA_AFTER);
    if (input.captcha) {
      await this.useCaptcha(input.captcha);
    } else if (captchaNeeded) {
      throw new AppError(400, "api.captchaRequired", BusinessCode.CaptchaRequired, { captchaRequired: true });
    }
    const user = await repo.findUserByEmail(this.db, email);
    const valid = user
      ? await verifyPassword(user.passwordHash, input.password)
      : await decoyCheck(input.password);
    if (!user || !valid) {
      await repo.recordLoginAttempt(this.db, email, meta.ip, false, this.now());
      throw new AppError(401, "api.loginFailed");
    }
    await repo.recordLoginAttempt(this.db, email, meta.ip, true, this.now());
    return this.openSession(user, meta);
  }

  private async useCaptcha(payload: string): Promise<void> {
    const result = await this.ctx.captcha.verify(payload);
    if (!result.ok || !result.signature) {
      throw new AppError(400, "api.captchaInvalid", BusinessCode.CaptchaInvalid, { captchaRequired: true });
    }
    // Each solved challenge works once.
    const inserted = await this.db
      .insert(captchaUses)
      .values({ signature: result.signature, expiresAt: result.expiresAt ?? this.now() })
      .onConflictDoNothing()
      .returning({ signature: captchaUses.signature });
    if (inserted.length === 0) {
      throw new AppError(400, "api.captchaInvalid", BusinessCode.CaptchaInvalid, { captchaRequired: true });
    }
  }

  private async openSession(user: repo.UserRow, meta: RequestMeta): Promise<LoginResult> {
    const sessionId = randomUUID();
    const expiresAt = new Date(this.now().getTime() + SESSION_TTL_MS);
    await this.db.insert(sessions).values({
      id: sessionId,
      userId: user.id,
      expiresAt,
      ip: meta.ip,
      userAgent: meta.userAgent.slice(0, 300),
    });
    const token = await this.ctx.tokens.sign(
      { sessionId, userId: user.id, companyId: user.companyId, role: user.role },
      expiresAt,
    );
    if (user.companyId !== null) {
      await recordActivity(this.db, { companyId: user.companyId, userId: user.id, action: "signIn" });
    }
    const account = repo.toAccount(user, undefined);
    return { token, expiration: expiresAt.toISOString(), user: account.companyUser };
  }

  async logout(sessionId: string): Promise<void> {
    await this.db.update(sessions).set({ revokedAt: this.now() }).where(eq(sessions.id, sessionId));
  }

  async getAccount(userId: number): Promise<Account> {
    const account = await repo.loadAccount(this.db, userId);
    if (!account) throw AppError.notFound();
    return account;
  }

  async updateProfile(userId: number, input: UpdateAccountRequest): Promise<Account> {
    await this.db
      .update(users)
      .set({
        firstName: input.first_Name,
        lastName: input.last_Name,
        phone: input.phone,
        updatedAt: this.now(),
      })
      .where(eq(users.id, userId));
    return this.getAccount(userId);
  }

  async updateCompany(userId: number, companyId: number, input: UpdateCompanyRequest): Promise<Account> {
    await this.db
      .update(companies)
      .set({
        name: input.company_Name,
        taxOffice: input.tax_Office,
        taxNumber: input.tax_Number,
        address: input.address,
        phone: input.phone,
      })
      .where(eq(companies.id, companyId));
    return this.getAccount(userId);
  }

  /** Mails a one-hour, single-use reset link when the address exists; says nothing either way. */
  async recoverPassword(email: string): Promise<void> {
    const user = await repo.findUserByEmail(this.db, email.trim());
    if (!user) return;
    const code = newCode();
    const link = `${this.ctx.config.publicUrl}/account/reset-password?rowid=${code}`;
    await this.db.transaction(async (tx) => {
      await tx.insert(oneTimeCodes).values({
        purpose: "password_reset",
        codeHash: hashCode(code),
        userId: user.id,
        expiresAt: new Date(this.now().getTime() + RESET_LINK_TTL_MS),
      });
      await this.ctx.mailer.enqueue(tx, this.ctx.queue, {
        to: user.email,
        subject: message("mail.resetSubject"),
        body: message("mail.resetBody", { name: user.firstName, link }),
      });
    });
  }

  checkResetCode(rowid: string): Promise<boolean> {
    return repo.isCodeUsable(this.db, "password_reset", hashCode(rowid), this.now());
  }

  async resetPassword(rowid: string, newPassword: string): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    const now = this.now();
    const done = await this.db.transaction(async (tx) => {
      const userId = await repo.consumeCode(tx, "password_reset", hashCode(rowid), now);
      if (!userId) return false;
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
      await repo.revokeSessions(tx, userId, now);
      return true;
    });
    if (!done) throw new AppError(400, "api.resetLinkInvalid");
  }

  /** Password change: the old one must match; every other session of the user ends. */
  async updatePassword(
    userId: number,
    sessionId: string,
    oldPassword: string,
    password: string,
  ): Promise<void> {
    const user = await repo.findUserById(this.db, userId);
    if (!user || !(await verifyPassword(user.passwordHash, oldPassword))) {
      throw new AppError(400, "api.oldPasswordWrong", 400, {
        errors: [{ field: "oldPassword", message: message("api.oldPasswordWrong") }],
      });
    }
    const passwordHash = await hashPassword(password);
    const now = this.now();
    await this.db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
      await repo.revokeSessions(tx, userId, now, sessionId);
    });
  }

  /** A single-use sign-in code, valid five minutes (partner install flows hand it to the browser). */
  async issueLoginCode(userId: number): Promise<{ rowId: string; expiresAt: string }> {
    const code = newCode();
    const expiresAt = new Date(this.now().getTime() + LOGIN_CODE_TTL_MS);
    await this.db
      .insert(oneTimeCodes)
      .values({ purpose: "login", codeHash: hashCode(code), userId, expiresAt });
    return { rowId: code, expiresAt: expiresAt.toISOString() };
  }

  async loginByCode(rowId: string, meta: RequestMeta): Promise<LoginResult> {
    const userId = await repo.consumeCode(this.db, "login", hashCode(rowId), this.now());
    const user = userId ? await repo.findUserById(this.db, userId) : undefined;
    if (!user) throw new AppError(401, "api.loginCodeInvalid");
    return this.openSession(user, meta);
  }
}

async function decoyCheck(password: string): Promise<false> {
  await verifyPassword(await decoyHash(), password);
  return false;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === "23505" || e?.cause?.code === "23505";
}
