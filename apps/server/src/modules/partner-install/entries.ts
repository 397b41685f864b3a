/**
 * Partner entry links (`/{product}-auth`) for a signed-in company: one mechanism for every shop in
 * `PARTNER_ENTRIES`. The merchant confirms connecting the store to their current company; then
 * - an OAuth shop (Ideasoft, Shopify) is sent to its consent page with a state bound to this browser,
 *   comes back with a code, and the tokens land on the company's connection;
 * - a shop without a partner consent (IKAS private apps, T-Soft, Sentos, Sopyo, Shopier) becomes the
 *   company's chosen system and the connection form opens.
 * Per shop only the OAuth adapter below differs (authorize address, callback check, code exchange).
 */

import {
  ConnectorError,
  createConnectorHttp,
  exchangeIdeasoftCode,
  exchangeShopifyCode,
  InMemoryRateLimitStore,
  ideasoftAuthorizeUrl,
  ideasoftStoreUrl,
  normalizeShopDomain,
  shopifyAuthorizeUrl,
  shopifyDescriptor,
  verifyShopifyCallback,
} from "@ep/connectors";
import { type PartnerEntry, partnerEntry } from "@ep/contracts";
import { eq } from "drizzle-orm";
import type { PartnerSettings } from "../../config.ts";
import type { AppContext } from "../../platform/context.ts";
import { companies } from "../../platform/db/schema.ts";
import { findConnection, openCredentials, saveConnection } from "../connections/repository.ts";
import { InstallError } from "./provisioning.ts";

export type ReadySettings = { clientId: string; clientSecret: string; oauthBase: string | undefined };

/** The link's shop, or `partner_unavailable` for a `{product}` that is not in the list. */
export function entryOf(product: string): PartnerEntry {
  const entry = partnerEntry(product);
  if (!entry) throw new InstallError("partner_unavailable", `no partner entry ${product}`);
  return entry;
}

/** The app's client id and secret, or `partner_not_configured` naming the settings that are unset. */
export function partnerSettings(ctx: AppContext, entry: PartnerEntry): ReadySettings {
  const names = entry.settings;
  const s: PartnerSettings | undefined = ctx.config.partners[entry.product];
  const missing = names
    ? [...(s?.clientId ? [] : [names.clientId]), ...(s?.clientSecret ? [] : [names.clientSecret])]
    : [];
  if (!names || !s?.clientId || !s.clientSecret)
    throw new InstallError("partner_not_configured", `${missing.join(", ")} not set`, {
      details: { system: entry.name, missing: missing.join(", ") },
    });
  return { clientId: s.clientId, clientSecret: s.clientSecret, oauthBase: s.oauthBase };
}

export function redirectUri(ctx: AppContext, entry: PartnerEntry): string {
  return `${ctx.config.publicUrl}${entry.redirectPath ?? `/${entry.product}-auth`}`;
}

export function connectorContext(ctx: AppContext, companyId: string) {
  return {
    companyId,
    rateLimitStore: new InMemoryRateLimitStore(),
    timeoutMs: Math.min(ctx.config.connectorTimeoutMs, 15_000),
    retry: { maxRetries: 1, maxRetryAfterMs: 5_000 },
    fetch: ctx.outbound.fetch,
    now: () => ctx.clock.now().getTime(),
  };
}

const IDEASOFT_DOMAIN = /^(?=.{4,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** A store address as the link gives it (`https://magaza.com/…` → `magaza.com`), or `store_missing`. */
export function storeDomain(store: string): string {
  const d = store
    .trim()
    .replace(/^https?:\/\//i, "")
    .replace(/\/.*$/, "")
    .toLowerCase();
  if (!IDEASOFT_DOMAIN.test(d)) throw new InstallError("store_missing", `not a store address: ${store}`);
  return d;
}

export interface CallbackInput {
  store: string;
  code: string;
  /** The whole callback query (Shopify signs it). */
  query: Record<string, string>;
}

interface OAuthAdapter {
  /** The store as the shop names it (checked), from the link's value. */
  store(entry: PartnerEntry, value: string): string;
  authorizeUrl(input: { store: string; settings: ReadySettings; redirectUri: string; state: string }): string;
  /** Checks the callback and trades its code for the credentials stored on the connection. */
  exchange(
    ctx: AppContext,
    input: CallbackInput & { settings: ReadySettings; redirectUri: string },
  ): Promise<Record<string, string>>;
}

/** What our app asks Shopify for: products, stock, prices, orders and locations. */
export const SHOPIFY_SCOPES = [
  "read_products",
  "write_products",
  "read_inventory",
  "write_inventory",
  "read_orders",
  "write_orders",
  "read_locations",
];
/** A Shopify callback older than this is refused (its code lives a few minutes anyway). */
const SHOPIFY_CALLBACK_MAX_AGE_S = 15 * 60;

export function codeRefused(entry: PartnerEntry) {
  return (error: unknown): never => {
    if (error instanceof InstallError) throw error;
    const refused = error instanceof ConnectorError && error.reason === "auth";
    throw new InstallError(
      refused ? "code_refused" : "store_unreachable",
      `${entry.product} code exchange failed`,
      {
        cause: error,
        details: { system: entry.name },
      },
    );
  };
}

export const OAUTH_ADAPTERS: Record<string, OAuthAdapter> = {
  ideasoft: {
    store: (_entry, value) => storeDomain(value),
    authorizeUrl: ({ store, settings, redirectUri, state }) =>
      ideasoftAuthorizeUrl(settings.oauthBase ?? ideasoftStoreUrl(store), {
        clientId: settings.clientId,
        redirectUri,
        state,
      }),
    async exchange(ctx, { store, code, settings, redirectUri }) {
      const tokens = await exchangeIdeasoftCode(
        {
          baseUrl: settings.oauthBase ?? ideasoftStoreUrl(store),
          clientId: settings.clientId,
          clientSecret: settings.clientSecret,
          code,
          redirectUri,
        },
        connectorContext(ctx, `install:${store}`),
      );
      return {
        storeDomain: store,
        clientId: settings.clientId,
        clientSecret: settings.clientSecret,
        ...tokens,
        ...(settings.oauthBase ? { apiUrl: settings.oauthBase } : {}),
      };
    },
  },
  shopify: {
    store(_entry, value) {
      try {
        return normalizeShopDomain(value);
      } catch (error) {
        throw new InstallError("store_missing", `not a myshopify.com address: ${value}`, { cause: error });
      }
    },
    authorizeUrl: ({ store, settings, redirectUri, state }) =>
      shopifyAuthorizeUrl({
        shop: store,
        clientId: settings.clientId,
        scopes: SHOPIFY_SCOPES,
        redirectUri,
        state,
      }),
    async exchange(ctx, { store, code, query, settings }) {
      // The state was checked against this browser's cookie already; here the signature and the shop.
      const check = verifyShopifyCallback(query, {
        clientSecret: settings.clientSecret,
        state: query.state ?? "",
        now: ctx.clock.now().getTime(),
        maxAgeS: SHOPIFY_CALLBACK_MAX_AGE_S,
      });
      if (!check.ok || check.shop !== store)
        throw new InstallError("callback_invalid", `shopify callback refused: ${check.problem ?? "shop"}`);
      const http = createConnectorHttp(shopifyDescriptor, connectorContext(ctx, `install:${store}`));
      const grant = await exchangeShopifyCode(http, {
        shop: store,
        clientId: settings.clientId,
        clientSecret: settings.clientSecret,
        code,
        expiring: true,
        ...(settings.oauthBase ? { baseUrl: settings.oauthBase } : {}),
        now: () => ctx.clock.now().getTime(),
      });
      return {
        shopDomain: store,
        clientId: settings.clientId,
        clientSecret: settings.clientSecret,
        apiSecretKey: settings.clientSecret,
        accessToken: grant.accessToken,
        ...(grant.refreshToken ? { refreshToken: grant.refreshToken } : {}),
        ...(grant.expiresAt ? { tokenExpiresAt: String(grant.expiresAt) } : {}),
        ...(settings.oauthBase ? { apiBaseUrl: settings.oauthBase } : {}),
      };
    },
  },
};

function adapterOf(entry: PartnerEntry): OAuthAdapter {
  const adapter = OAUTH_ADAPTERS[entry.product];
  if (entry.flow !== "oauth" || !adapter)
    throw new InstallError("partner_unavailable", `${entry.product} has no OAuth install`);
  return adapter;
}

export class PartnerEntryService {
  constructor(private readonly ctx: AppContext) {}

  /**
   * The merchant confirmed: the consent page to go to (OAuth), or the connection form after choosing
   * the system for the company (form). `state` is bound to the browser by the caller.
   */
  async start(
    companyId: number,
    product: string,
    storeValue: string,
    state: string,
  ): Promise<{ url: string; external: boolean }> {
    const entry = entryOf(product);
    if (entry.flow === "unavailable")
      throw new InstallError("partner_unavailable", `${product} not ready`, {
        details: { system: entry.name },
      });
    if (entry.flow === "form") {
      await this.chooseSystem(companyId, entry);
      const q = new URLSearchParams({ [entry.kind]: String(entry.systemType) });
      return { url: `/settings/api-keys?${q}`, external: false };
    }
    const adapter = adapterOf(entry);
    const settings = partnerSettings(this.ctx, entry);
    if (!storeValue.trim()) throw new InstallError("store_missing", "no store on the link");
    const store = adapter.store(entry, storeValue);
    return {
      url: adapter.authorizeUrl({ store, settings, redirectUri: redirectUri(this.ctx, entry), state }),
      external: true,
    };
  }

  /** The consent page's answer: the tokens stored on the caller's company's connection. */
  async connect(
    companyId: number,
    product: string,
    input: CallbackInput,
  ): Promise<{ system: string; store: string }> {
    const entry = entryOf(product);
    const adapter = adapterOf(entry);
    const settings = partnerSettings(this.ctx, entry);
    if (!input.store.trim()) throw new InstallError("store_missing", "no store on the callback");
    const store = adapter.store(entry, input.store);
    const credentials = await adapter
      .exchange(this.ctx, { ...input, store, settings, redirectUri: redirectUri(this.ctx, entry) })
      .catch(codeRefused(entry));
    await storePartnerConnection(this.ctx, companyId, entry, credentials);
    return { system: entry.name, store };
  }

  /** A form shop: the company's system of that kind, unless another one is connected already. */
  private async chooseSystem(companyId: number, entry: PartnerEntry): Promise<void> {
    const db = this.ctx.database.db;
    const current = await findConnection(db, companyId, entry.kind);
    if (current && current.systemType !== entry.systemType) return;
    await db
      .update(companies)
      .set(entry.kind === "shop" ? { ecommerceType: entry.systemType } : { erpType: entry.systemType })
      .where(eq(companies.id, companyId));
  }
}

/**
 * Saves a partner install's credentials on the company's connection of the shop's kind: fields the
 * merchant set on a connection of the same system are kept, the partner's tokens replace theirs.
 */
export async function storePartnerConnection(
  ctx: AppContext,
  companyId: number,
  entry: PartnerEntry,
  credentials: Record<string, string>,
  opts: { keepOtherSystem?: boolean } = {},
): Promise<void> {
  const db = ctx.database.db;
  const current = await findConnection(db, companyId, entry.kind);
  if (current && current.systemType !== entry.systemType && opts.keepOtherSystem) return;
  const merged =
    current && current.systemType === entry.systemType
      ? { ...openCredentials(ctx.credentials, current), ...credentials }
      : credentials;
  await saveConnection(db, ctx.credentials, {
    companyId,
    kind: entry.kind,
    systemType: entry.systemType,
    credentials: merged,
  });
  await db
    .update(companies)
    .set(entry.kind === "shop" ? { ecommerceType: entry.systemType } : { erpType: entry.systemType })
    .where(eq(companies.id, companyId));
}
