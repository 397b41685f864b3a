import { randomUUID } from "node:crypto";
import { availabilityOf, getDescriptor } from "@ep/connectors";
import {
  type Account,
  BusinessCode,
  EMAIL_PATTERN,
  type LoginRequest,
  type LoginResult,
  type MessageKey,
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
import type { Tx } from "../../platform/db/tx-sql.ts";
import { forgetSessions } from "../../platform/http/auth.ts";
import { AppError } from "../../platform/http/envelope.ts";
import type { CaptchaLevel } from "../../platform/security/captcha.ts";
import { hashCode, newCode } from "../../platform/security/codes.ts";
import { decoyHash, hashPassword, verifyPassword } from "../../platform/security/passwords.ts";
import { hit, secondsUntilBelow } from "../../platform/security/throttle.ts";
import { recordActivity } from "../activities/repository.ts";
import { TicketService } from "../tickets/service.ts";
import * as repo from "./repository.ts";

export const SESSION_TTL_MS = 24 * 60 * 60_000;
/**
 * Sign-in throttling after OWASP's authentication cheat sheet: failures are counted per account and
 * per client address separately, and crossing a threshold demands a captcha, then a harder one —
 * never a lock, so nobody can shut a user (or an office behind one address) out. A correct password
 * with a valid captcha of the demanded level always gets in; only a flood from one address is refused.
 */
/** Ticket categories (seed 0006): "ERP Bağlantısı" and "E-Ticaret Bağlantısı". */
const ERP_CONNECTION_CATEGORY = 201;
const SHOP_CONNECTION_CATEGORY = 202;

export const THROTTLE_WINDOW_MS = 15 * 60_000;
/** CAPTCHA=adaptive: failures for one e-mail before a captcha is demanded. */
export const ADAPTIVE_CAPTCHA_AFTER = 3;
/** Any mode: failures for one e-mail before the harder captcha is demanded. */
export const HARD_CAPTCHA_AFTER = 10;
/** Any mode: failures from one address (any e-mails) before a captcha, then the harder one. */
export const ADDRESS_CAPTCHA_AFTER = 10;
export const ADDRESS_HARD_CAPTCHA_AFTER = 30;
/** The flood ceiling: sign-in requests from one address in a minute, whatever their outcome. */
export const LOGIN_FLOOD_LIMIT = 60;
export const LOGIN_FLOOD_WINDOW_MS = 60_000;
/**
 * Registration, per client address: after this many registrations in the window a captcha is demanded
 * (CAPTCHA=adaptive or required), and beyond the flood limit they answer 429 whatever the mode.
 */
export const REGISTER_WINDOW_MS = 60 * 60_000;
export const REGISTER_CAPTCHA_AFTER = 3;
export const REGISTER_FLOOD_LIMIT = 20;
export const RESET_LINK_TTL_MS = 60 * 60_000;
/** Password recovery: requests per client address, and mails per e-mail, in one link lifetime. */
export const RECOVER_WINDOW_MS = RESET_LINK_TTL_MS;
export const RECOVER_ADDRESS_LIMIT = 20;
export const RECOVER_EMAIL_LIMIT = 3;
export const PASSWORD_RECOVERY_QUEUE = "password-recovery";
export type RecoveryJob = { email: string; send: boolean };
export const LOGIN_CODE_TTL_MS = 5 * 60_000;
export const TRIAL_DAYS = 14;

export const TRIAL_LICENSES = [
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
  async register(input: RegisterRequest, meta: Pick<RequestMeta, "ip">): Promise<Account> {
    await this.throttleRegistration(input.captcha, meta.ip);
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
        await this.requestNotReadySystems(tx, company!.id, user!.id, input);
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

  /**
   * A company that registers with a system whose connector is not ready gets a ticket for it at
   * once, so our team contacts them instead of leaving them at a form they cannot save.
   */
  private async requestNotReadySystems(tx: Tx, companyId: number, userId: number, input: RegisterRequest) {
    const picked = [
      { kind: "erp" as const, type: input.erpType, categoryId: ERP_CONNECTION_CATEGORY },
      { kind: "shop" as const, type: input.ecommerceType, categoryId: SHOP_CONNECTION_CATEGORY },
    ];
    for (const { kind, type, categoryId } of picked) {
      const descriptor = getDescriptor(kind, type);
      if (!descriptor || availabilityOf(descriptor) !== "soon") continue;
      await new TicketService(this.ctx).openOnBehalf(tx, {
        companyId,
        userId,
        categoryId,
        subject: message("tickets.systemRequestSubject", { system: descriptor.name }),
        message: message("tickets.systemRequestBody", { system: descriptor.name }),
      });
    }
  }

  async login(input: LoginRequest, meta: RequestMeta): Promise<LoginResult> {
    const email = input.email.trim().toLowerCase();
    const now = this.now();
    await this.countOrRefuse(
      "login:address",
      meta.ip,
      now,
      LOGIN_FLOOD_WINDOW_MS,
      LOGIN_FLOOD_LIMIT,
      "api.tooManyLoginAttempts",
    );
    const since = new Date(now.getTime() - THROTTLE_WINDOW_MS);
    const failures = await repo.countRecentFailures(this.db, email, meta.ip, since);
    const required = this.requiredCaptcha(failures);
    if (input.captcha) {
      await this.useCaptcha(input.captcha, required);
    } else if (required) {
      throw captchaDemand(required);
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

  /** Counts one request in a per-address window; beyond `limit`, 429 with the wait until below it. */
  private async countOrRefuse(
    bucket: string,
    key: string,
    now: Date,
    windowMs: number,
    limit: number,
    refusal: MessageKey,
  ): Promise<number> {
    const hits = await hit(this.db, bucket, key, now, windowMs);
    if (hits > limit)
      throw AppError.tooMany(refusal, await secondsUntilBelow(this.db, bucket, key, now, windowMs, limit));
    return hits;
  }

  /** Registrations from one address: a captcha after a few, a refusal (429) beyond the flood limit. */
  private async throttleRegistration(captcha: string | undefined, ip: string): Promise<void> {
    const now = this.now();
    const attempts = await this.countOrRefuse(
      "register:address",
      ip,
      now,
      REGISTER_WINDOW_MS,
      REGISTER_FLOOD_LIMIT,
      "api.tooManyRegistrations",
    );
    const required = this.ctx.config.captcha !== "off" && attempts > REGISTER_CAPTCHA_AFTER ? "normal" : null;
    if (captcha) await this.useCaptcha(captcha, required);
    else if (required) throw captchaDemand(required);
  }

  /** Which captcha this attempt needs, from the failures of its e-mail and of its address. */
  private requiredCaptcha(failures: { byEmail: number; byIp: number }): CaptchaLevel | null {
    if (failures.byEmail >= HARD_CAPTCHA_AFTER || failures.byIp >= ADDRESS_HARD_CAPTCHA_AFTER) return "hard";
    const mode = this.ctx.config.captcha;
    if (mode === "required") return "normal";
    if (mode === "adaptive" && failures.byEmail >= ADAPTIVE_CAPTCHA_AFTER) return "normal";
    if (failures.byIp >= ADDRESS_CAPTCHA_AFTER) return "normal";
    return null;
  }

  private async useCaptcha(payload: string, required: CaptchaLevel | null): Promise<void> {
    const result = await this.ctx.captcha.verify(payload);
    if (!result.ok || !result.signature) {
      throw new AppError(400, "api.captchaInvalid", BusinessCode.CaptchaInvalid, {
        captchaRequired: true,
        captchaLevel: required ?? "normal",
      });
    }
    // Too easy a proof is not spent: the widget asks for a harder challenge and comes back.
    if (required === "hard" && result.level !== "hard") throw captchaDemand("hard");
    // Each solved challenge works once.
    const inserted = await this.db
      .insert(captchaUses)
      .values({ signature: result.signature, expiresAt: result.expiresAt ?? this.now() })
      .onConflictDoNothing()
      .returning({ signature: captchaUses.signature });
    if (inserted.length === 0) {
      throw new AppError(400, "api.captchaInvalid", BusinessCode.CaptchaInvalid, {
        captchaRequired: true,
        captchaLevel: required ?? "normal",
      });
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
    forgetSessions(this.ctx, { sessionId });
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
        website: input.website,
      })
      .where(eq(companies.id, companyId));
    return this.getAccount(userId);
  }

  /**
   * Asks for a reset link. The request does the same work whatever the address: it counts, and it
   * queues one job; the worker looks the address up and mails a link, or does nothing (unknown
   * address, or its mail limit reached). So neither the answer nor its timing tells who has an account.
   */
  async recoverPassword(email: string, ip: string): Promise<void> {
    const now = this.now();
    const address = email.trim().toLowerCase();
    await this.countOrRefuse(
      "recover:address",
      ip,
      now,
      RECOVER_WINDOW_MS,
      RECOVER_ADDRESS_LIMIT,
      "api.rateLimited",
    );
    // Over an e-mail's limit the answer stays the same: the links already mailed still work, and
    // asking again neither floods that inbox nor tells anything.
    const forEmail = await hit(this.db, "recover:email", address, now, RECOVER_WINDOW_MS);
    const job: RecoveryJob = { email: address, send: forEmail <= RECOVER_EMAIL_LIMIT };
    await this.ctx.queue.send(PASSWORD_RECOVERY_QUEUE, job, { retryLimit: 3, retryBackoff: true });
  }

  /** The recovery worker's step: a one-hour, single-use link for a known address, else nothing. */
  async sendResetLink(job: RecoveryJob): Promise<void> {
    if (!job.send) return;
    const user = await repo.findUserByEmail(this.db, job.email);
    if (!user) return;
    const code = newCode();
    const link = `${this.ctx.config.publicUrl}/account/reset-password?rowid=${code}`;
    const expiresAt = new Date(this.now().getTime() + RESET_LINK_TTL_MS);
    await this.db.transaction(async (tx) => {
      await tx.insert(oneTimeCodes).values({
        purpose: "password_reset",
        codeHash: hashCode(code),
        userId: user.id,
        expiresAt,
      });
      await this.ctx.mailer.enqueue(tx, this.ctx.queue, {
        to: user.email,
        subject: message("mail.resetSubject"),
        body: message("mail.resetBody", { name: user.firstName, link }),
        bodyExpiresAt: expiresAt,
      });
    });
  }

  checkResetCode(rowid: string): Promise<boolean> {
    return repo.isCodeUsable(this.db, "password_reset", hashCode(rowid), this.now());
  }

  async resetPassword(rowid: string, newPassword: string): Promise<void> {
    const passwordHash = await hashPassword(newPassword);
    const now = this.now();
    const userId = await this.db.transaction(async (tx) => {
      const userId = await repo.consumeCode(tx, "password_reset", hashCode(rowid), now);
      if (!userId) return null;
      await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
      await repo.revokeSessions(tx, userId, now);
      return userId;
    });
    if (!userId) throw new AppError(400, "api.resetLinkInvalid");
    // After the commit: a check in between would otherwise keep the old row's answer.
    forgetSessions(this.ctx, { userId });
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
    forgetSessions(this.ctx, { userId });
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

function captchaDemand(level: CaptchaLevel): AppError {
  return new AppError(
    400,
    level === "hard" ? "api.captchaHarderRequired" : "api.captchaRequired",
    BusinessCode.CaptchaRequired,
    { captchaRequired: true, captchaLevel: level },
  );
}

async function decoyCheck(password: string): Promise<false> {
  await verifyPassword(await decoyHash(), password);
  return false;
}

function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | undefined;
  return e?.code === "23505" || e?.cause?.code === "23505";
}
