/**
 * Ideasoft app-store install: the merchant approves our app on their store's consent page and lands on
 * `/ideasoft-app-install?code=…&domain=…`. We exchange the code, read the store's owner and the
 * installed app (its name names the purchased package), find or create the company with its user,
 * licences and shop connection, and hand back a one-time sign-in code for `login-by-rowId`.
 */

import { createIdeasoftConnector, ideasoftDescriptor } from "@ep/connectors";
import { type PartnerEntry, ProductType } from "@ep/contracts";
import type { AppContext } from "../../platform/context.ts";
import { AccountService } from "../account/service.ts";
import {
  codeRefused,
  connectorContext,
  entryOf,
  OAUTH_ADAPTERS,
  partnerSettings,
  redirectUri,
  storePartnerConnection,
} from "./entries.ts";
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

const adapter = OAUTH_ADAPTERS.ideasoft!;

export class IdeasoftInstallService {
  private readonly entry: PartnerEntry = entryOf(IDEASOFT_PARTNER);
  constructor(private readonly ctx: AppContext) {}

  /** The consent page of a store (the `/ideasoft-oauth2` screen starts here). */
  authorizeUrl(domain: string, state: string): string {
    return adapter.authorizeUrl({
      store: adapter.store(this.entry, domain),
      settings: partnerSettings(this.ctx, this.entry),
      redirectUri: redirectUri(this.ctx, this.entry),
      state,
    });
  }

  async install(input: { code: string; domain: string }): Promise<{ rowId: string; created: boolean }> {
    const settings = partnerSettings(this.ctx, this.entry);
    const domain = adapter.store(this.entry, input.domain);
    const credentials = await adapter
      .exchange(this.ctx, {
        store: domain,
        code: input.code,
        query: {},
        settings,
        redirectUri: redirectUri(this.ctx, this.entry),
      })
      .catch(codeRefused(this.entry));
    const db = this.ctx.database.db;

    const existing = await findPartnerCompany(db, IDEASOFT_PARTNER, domain);
    if (existing) {
      // A reinstall hands out a new token pair: the stored one may be dead already.
      await this.storeConnection(existing.companyId, credentials);
      return { rowId: await this.loginCode(existing.userId), created: false };
    }

    const shop = createIdeasoftConnector(credentials, connectorContext(this.ctx, `install:${domain}`));
    const [owner, apps] = await Promise.all([shop.storeOwner(), shop.installedApplications()]).catch(
      (error: unknown) => {
        throw new InstallError("store_unreachable", "store not readable", {
          cause: error,
          details: { system: this.entry.name },
        });
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

  /** Another shop connected by hand is left alone; an Ideasoft one gets the new tokens. */
  private storeConnection(companyId: number, credentials: Record<string, string>): Promise<void> {
    return storePartnerConnection(this.ctx, companyId, this.entry, credentials, { keepOtherSystem: true });
  }

  private async loginCode(userId: number): Promise<string> {
    return (await new AccountService(this.ctx).issueLoginCode(userId)).rowId;
  }
}
