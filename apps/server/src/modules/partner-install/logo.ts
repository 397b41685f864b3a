/**
 * Logo İşbaşı sign-on (`/logo-auth-redirect`): Logo sends its user here with the İşbaşı API key
 * (`?apikey=…`, the query name is inferred: VERIFIED.md of logo-isbasi). The user confirms with their
 * İşbaşı e-mail and password; `integrationLogin` with the key in the `ApiKey` header (the spec's
 * "single sign-on with an apiKey header") proves all three and names the tenant. The tenant's company
 * signs in; a new tenant gets its company (Logo İşbaşı as ERP), its user, the registration's trial
 * licences and the ERP connection with these credentials, tested at once — then signs in through
 * the one-time code of `login-by-rowId`. The key alone never signs anyone in.
 */

import {
  ConnectorError,
  createIsbasiConnector,
  InMemoryRateLimitStore,
  isbasiDescriptor,
} from "@ep/connectors";
import { EMAIL_PATTERN, message, TURKISH_CHARACTERS } from "@ep/contracts";
import type { AppContext } from "../../platform/context.ts";
import { AccountService, TRIAL_DAYS, TRIAL_LICENSES } from "../account/service.ts";
import { connectorFor } from "../connections/connector-factory.ts";
import {
  findConnection,
  openCredentials,
  recordConnectionTest,
  saveConnection,
} from "../connections/repository.ts";
import { findOrCreatePartnerCompany, findPartnerCompany, InstallError } from "./provisioning.ts";

export const LOGO_PARTNER = "logo-isbasi";
export const LOGO_SIGN_ON_PATH = "/logo-auth-redirect";

export interface LogoSignOnInput {
  apiKey: string;
  username: string;
  password: string;
  /** The firm to sign in to when the user has several (İşbaşı's optional `tenantId`). */
  tenantId?: string;
}

export class LogoSignOnService {
  constructor(private readonly ctx: AppContext) {}

  private credentials(input: LogoSignOnInput): Record<string, string> {
    const apiUrl = this.ctx.config.logoIsbasi.apiUrl;
    return {
      apiKey: input.apiKey.trim(),
      username: input.username.trim(),
      password: input.password,
      ...(input.tenantId?.trim() ? { tenantId: input.tenantId.trim() } : {}),
      apiUrl: apiUrl ?? String(isbasiDescriptor.credentials.find((f) => f.name === "apiUrl")?.default ?? ""),
    };
  }

  /** `integrationLogin` with the key: the tenant id, or the install error the dialog shows. */
  private async login(credentials: Record<string, string>): Promise<string> {
    const connector = createIsbasiConnector(credentials, {
      companyId: `logo-sign-on:${credentials.username}`,
      rateLimitStore: new InMemoryRateLimitStore(),
      timeoutMs: Math.min(this.ctx.config.connectorTimeoutMs, 15_000),
      retry: { maxRetries: 1, maxRetryAfterMs: 5_000 },
      fetch: this.ctx.outbound.fetch,
      now: () => this.ctx.clock.now().getTime(),
    });
    try {
      const info = await connector.testConnection();
      const tenantId = String(info.details?.tenantId ?? info.firm ?? "");
      if (!tenantId) throw new InstallError("system_exception", "no tenant in the login answer");
      return tenantId;
    } catch (error) {
      if (error instanceof InstallError) throw error;
      // Key, user or password refused: İşbaşı has no such user for this key.
      if (error instanceof ConnectorError && error.reason === "auth")
        throw new InstallError("user_not_found", "İşbaşı refused the key or the user", { cause: error });
      throw new InstallError("store_unreachable", "İşbaşı not reachable", {
        cause: error,
        details: { system: isbasiDescriptor.name },
      });
    }
  }

  async signOn(input: LogoSignOnInput): Promise<{ rowId: string; created: boolean }> {
    const credentials = this.credentials(input);
    const tenantId = await this.login(credentials);
    const db = this.ctx.database.db;

    const existing = await findPartnerCompany(db, LOGO_PARTNER, tenantId);
    if (existing) {
      // The tenant signs in; its İşbaşı connection takes the credentials that just worked.
      await this.storeConnection(existing.companyId, credentials, tenantId);
      return { rowId: await this.loginCode(existing.userId), created: false };
    }

    const email = credentials.username ?? "";
    if (!EMAIL_PATTERN.test(email) || TURKISH_CHARACTERS.test(email) || email.length > 50)
      throw new InstallError("create_user_failure", "the İşbaşı user name is not an e-mail address");
    const now = this.ctx.clock.now();
    const provisioned = await findOrCreatePartnerCompany(db, {
      partner: LOGO_PARTNER,
      externalId: tenantId,
      company: {
        name: message("partnerInstall.logoCompanyName", { tenant: tenantId }),
        erpType: isbasiDescriptor.type,
        ecommerceType: 0,
      },
      user: { email, firstName: email.split("@")[0] ?? "", lastName: "" },
      // Logo names no package: the sign-on gets what a registration gets (inferred).
      licences: () => {
        const expiresAt = new Date(now.getTime() + TRIAL_DAYS * 86_400_000);
        return TRIAL_LICENSES.map((l) => ({ ...l, expiresAt }));
      },
    });
    await this.storeConnection(provisioned.companyId, credentials, tenantId);
    return { rowId: await this.loginCode(provisioned.userId), created: provisioned.created };
  }

  /** Saves the İşbaşı connection (another ERP connected by hand is left alone) and records its test. */
  private async storeConnection(
    companyId: number,
    credentials: Record<string, string>,
    tenantId: string,
  ): Promise<void> {
    const db = this.ctx.database.db;
    const current = await findConnection(db, companyId, "erp");
    if (current && current.systemType !== isbasiDescriptor.type) return;
    const merged = {
      ...(current ? openCredentials(this.ctx.credentials, current) : {}),
      ...credentials,
      tenantId,
    };
    const saved = await saveConnection(db, this.ctx.credentials, {
      companyId,
      kind: "erp",
      systemType: isbasiDescriptor.type,
      credentials: merged,
    });
    const at = this.ctx.clock.now();
    try {
      const info = await connectorFor(
        this.ctx,
        companyId,
        "erp",
        isbasiDescriptor.type,
        merged,
      ).testConnection();
      await recordConnectionTest(db, saved.id, {
        ok: true,
        message: message("connectionSettings.testOk", { description: info.description }),
        at,
      });
    } catch (error) {
      // Signed in a moment ago with the same credentials: a failure here is the service, not the user.
      this.ctx.logger.warn({ companyId, err: error }, "İşbaşı connection test after sign-on failed");
      await recordConnectionTest(db, saved.id, {
        ok: false,
        message: message("connectionSettings.testFailed", { system: isbasiDescriptor.name }),
        at,
      });
    }
  }

  private async loginCode(userId: number): Promise<string> {
    return (await new AccountService(this.ctx).issueLoginCode(userId)).rowId;
  }
}
