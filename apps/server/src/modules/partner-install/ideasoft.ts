/**
 * Ideasoft app-store install: the merchant approves our app on their store's consent page and lands on
 * `/ideasoft-app-install?code=…&domain=…`. We exchange the code, read the store's owner and the
 * installed app (its name names the purchased package), find or create the company with its user,
 * licences and shop connection, and hand back a one-time sign-in code for `login-by-rowId`.
 */

import {
  createIdeasoftConnector,
  exchangeIdeasoftCode,
  InMemoryRateLimitStore,
  ideasoftAuthorizeUrl,
  ideasoftDescriptor,
  ideasoftStoreUrl,
} from "@ep/connectors";
import { ProductType } from "@ep/contracts";
import type { AppContext } from "../../platform/context.ts";
import { AccountService } from "../account/service.ts";
import { findConnection, openCredentials, saveConnection } from "../connections/repository.ts";
import {
  findOrCreatePartnerCompany,
  findPartnerCompany,
  InstallError,
  type LicenceGrant,
} from "./provisioning.ts";

export const IDEASOFT_PARTNER = "ideasoft";
/** The landing route of the spec (section 2); Ideasoft redirects here with the code. */
export const IDEASOFT_INSTALL_PATH = "/ideasoft-app-install";

const LICENCE_TEXT: Record<string, Omit<LicenceGrant, "expiresAt">> = {
  [ProductType.ErpIntegration]: {
    productType: ProductType.ErpIntegration,
    name: "ERP Entegrasyonu",
    description: "Ürün, stok, fiyat ve kategori aktarımı ile sipariş ve faturaların ERP'ye yazılması.",
    imageFileName: "erp-integration.svg",
  },
  [ProductType.ECommerceIntegration]: {
    productType: ProductType.ECommerceIntegration,
    name: "E-Ticaret Entegrasyonu",
    description: "E-ticaret sitenizle ürün, stok, fiyat ve sipariş senkronizasyonu.",
    imageFileName: "ecommerce-integration.svg",
  },
};

/**
 * Our packages in Ideasoft's app store, by the installed application's name (inferred: Ideasoft
 * publishes no package field; one listing per package is how its app store sells tiers).
 */
export const IDEASOFT_PACKAGES: Record<string, ProductType[]> = {
  "Entegrasyon Paneli ERP + E-Ticaret": [ProductType.ErpIntegration, ProductType.ECommerceIntegration],
  "Entegrasyon Paneli E-Ticaret": [ProductType.ECommerceIntegration],
};

const DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

export class IdeasoftInstallService {
  constructor(private readonly ctx: AppContext) {}

  private get settings() {
    const s = this.ctx.config.ideasoft;
    if (!s) throw new InstallError("system_exception", "IDEASOFT_CLIENT_ID / IDEASOFT_CLIENT_SECRET not set");
    return s;
  }

  private redirectUri(): string {
    return `${this.ctx.config.publicUrl}${IDEASOFT_INSTALL_PATH}`;
  }

  private baseUrl(domain: string): string {
    return this.settings.oauthBase ?? ideasoftStoreUrl(domain);
  }

  private connectorContext(companyId: string) {
    return {
      companyId,
      rateLimitStore: new InMemoryRateLimitStore(),
      timeoutMs: Math.min(this.ctx.config.connectorTimeoutMs, 15_000),
      retry: { maxRetries: 1, maxRetryAfterMs: 5_000 },
      fetch: this.ctx.outbound.fetch,
      now: () => this.ctx.clock.now().getTime(),
    };
  }

  /** The consent page of a store (the `/ideasoft-oauth2` screen starts here). */
  authorizeUrl(domain: string, state: string): string {
    const d = checkDomain(domain);
    return ideasoftAuthorizeUrl(this.baseUrl(d), {
      clientId: this.settings.clientId,
      redirectUri: this.redirectUri(),
      state,
    });
  }

  async install(input: { code: string; domain: string }): Promise<{ rowId: string; created: boolean }> {
    const domain = checkDomain(input.domain).toLowerCase();
    const s = this.settings;
    const baseUrl = this.baseUrl(domain);
    const tokens = await exchangeIdeasoftCode(
      {
        baseUrl,
        clientId: s.clientId,
        clientSecret: s.clientSecret,
        code: input.code,
        redirectUri: this.redirectUri(),
      },
      this.connectorContext(`install:${domain}`),
    ).catch((error: unknown) => {
      throw new InstallError("system_exception", "authorization code refused", { cause: error });
    });
    const credentials: Record<string, string> = {
      storeDomain: domain,
      clientId: s.clientId,
      clientSecret: s.clientSecret,
      ...tokens,
      ...(s.oauthBase ? { apiUrl: s.oauthBase } : {}),
    };
    const db = this.ctx.database.db;

    const existing = await findPartnerCompany(db, IDEASOFT_PARTNER, domain);
    if (existing) {
      // A reinstall hands out a new token pair: the stored one may be dead already.
      await this.storeConnection(existing.companyId, credentials);
      return { rowId: await this.loginCode(existing.userId), created: false };
    }

    const shop = createIdeasoftConnector(credentials, this.connectorContext(`install:${domain}`));
    const [owner, apps] = await Promise.all([shop.storeOwner(), shop.installedApplications()]).catch(
      (error: unknown) => {
        throw new InstallError("system_exception", "store not readable", { cause: error });
      },
    );
    if (!owner?.email) throw new InstallError("create_user_failure", "the store has no panel user");
    const app = apps.find((a) => a.applicationName && IDEASOFT_PACKAGES[a.applicationName]);
    const now = this.ctx.clock.now();
    const provisioned = await findOrCreatePartnerCompany(db, {
      partner: IDEASOFT_PARTNER,
      externalId: domain,
      company: { name: domain, erpType: 0, ecommerceType: ideasoftDescriptor.type },
      user: { email: owner.email, firstName: owner.firstName, lastName: owner.lastName },
      licences: () => {
        const types = app?.applicationName ? IDEASOFT_PACKAGES[app.applicationName] : undefined;
        if (!types) throw new InstallError("undefined_package_type_request", "no known package installed");
        const renew =
          app && "applicationRenewDate" in app ? Date.parse(String(app.applicationRenewDate)) : Number.NaN;
        // Until the app store's renewal date; a year when it names none (inferred).
        const expiresAt = new Date(Number.isFinite(renew) ? renew : now.getTime() + 365 * 86_400_000);
        return types.map((t) => ({ ...(LICENCE_TEXT[t] as Omit<LicenceGrant, "expiresAt">), expiresAt }));
      },
    });
    await this.storeConnection(provisioned.companyId, credentials);
    return { rowId: await this.loginCode(provisioned.userId), created: provisioned.created };
  }

  private async storeConnection(companyId: number, credentials: Record<string, string>): Promise<void> {
    const db = this.ctx.database.db;
    const current = await findConnection(db, companyId, "shop");
    // Another shop connected by hand is left alone; an Ideasoft one gets the new tokens.
    if (current && current.systemType !== ideasoftDescriptor.type) return;
    const merged = current
      ? { ...openCredentials(this.ctx.credentials, current), ...credentials }
      : credentials;
    await saveConnection(db, this.ctx.credentials, {
      companyId,
      kind: "shop",
      systemType: ideasoftDescriptor.type,
      credentials: merged,
    });
  }

  private async loginCode(userId: number): Promise<string> {
    return (await new AccountService(this.ctx).issueLoginCode(userId)).rowId;
  }
}

function checkDomain(domain: string): string {
  const d = domain
    .trim()
    .replace(/^https?:\/\//i, "")
    .replace(/\/.*$/, "");
  if (!DOMAIN.test(d)) throw new InstallError("system_exception", "not a store domain");
  return d;
}
