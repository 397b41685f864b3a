/**
 * Partner entry links (`/{product}-auth`, spec section 2): one per shop the panel connects, as data.
 * The web screen and the server's partner module both read this list; a shop's install differs only in
 * the fields below.
 *
 * - `oauth`: the shop's consent page gives us a code (Ideasoft, Shopify); the server exchanges it and
 *   stores the tokens on the signed-in company's connection. Needs the app's client id and secret in
 *   the server's settings (`settings`), else the link says which one is missing.
 * - `form`: the shop has no partner consent flow (a private app or an API user the merchant makes):
 *   confirming chooses this system for the company and opens the connection form.
 * - `unavailable`: listed by the spec but not connectable yet ("Yakında").
 */

import { ECOMMERCE_TYPES, ERP_TYPES } from "./enums.ts";
import { PARTNER_PRODUCTS, type PartnerProduct } from "./partner-products.ts";

/**
 * Partner install error codes: the spec's (section 8), then the causes of our own landing screens, each
 * a dialog title on the web and a cause text (`partnerInstall.causes.*`) where the merchant can act.
 */
export const INSTALL_ERROR_CODES = [
  "undefined_package_type_request",
  "create_company_failure",
  "create_user_failure",
  "get_license_failure",
  "system_exception",
  "user_not_found",
  // The OAuth `state` is not the one this browser started the install with (a forged or foreign link).
  "state_mismatch",
  // Partner entry links (`/{product}-auth`): a cause the merchant or the administrator can act on.
  "partner_not_configured",
  "partner_unavailable",
  "store_missing",
  "callback_invalid",
  "code_refused",
  "store_unreachable",
] as const;
export type InstallErrorCode = (typeof INSTALL_ERROR_CODES)[number];

export type PartnerFlow = "oauth" | "form" | "unavailable";

export interface PartnerEntry {
  /** The `{product}` of `/{product}-auth`. */
  product: string;
  /** The system's name as the panel writes it. */
  name: string;
  /** Which connection of the company it fills. */
  kind: "shop" | "erp";
  /** The spec's system number (e-commerce or ERP list). */
  systemType: number;
  flow: PartnerFlow;
  /** Query parameters that may name the store on the link, first found wins. */
  storeParams: readonly string[];
  /** Where the shop sends the merchant back after consent (oauth only; registered with the shop). */
  redirectPath?: string;
  /** Server settings (environment variables) an oauth install needs. */
  settings?: { clientId: string; clientSecret: string; oauthBase: string };
}

type EntryData = Omit<PartnerEntry, "name" | "product">;

/** The system's name as the spec's lists write it (one name per system). */
const nameOf = (e: EntryData, product: string): string =>
  (e.kind === "shop" ? ECOMMERCE_TYPES : ERP_TYPES).find((t) => t.value === e.systemType)?.label ?? product;

const ENTRIES: Record<PartnerProduct, EntryData> = {
  ikas: {
    kind: "shop",
    systemType: 1,
    flow: "form",
    storeParams: ["storeName", "store", "shop"],
  },
  ideasoft: {
    kind: "shop",
    systemType: 2,
    flow: "oauth",
    storeParams: ["domain", "shop", "store"],
    // The redirect address registered with Ideasoft (the spec's install screen).
    redirectPath: "/ideasoft-app-install",
    settings: {
      clientId: "IDEASOFT_CLIENT_ID",
      clientSecret: "IDEASOFT_CLIENT_SECRET",
      oauthBase: "IDEASOFT_OAUTH_BASE",
    },
  },
  sentos: {
    kind: "shop",
    systemType: 3,
    flow: "form",
    storeParams: ["domain", "store", "shop"],
  },
  tsoft: {
    kind: "shop",
    systemType: 4,
    flow: "form",
    storeParams: ["domain", "store", "shop"],
  },
  shopify: {
    kind: "shop",
    systemType: 5,
    flow: "oauth",
    storeParams: ["shop"],
    redirectPath: "/shopify-auth",
    settings: {
      clientId: "SHOPIFY_CLIENT_ID",
      clientSecret: "SHOPIFY_CLIENT_SECRET",
      oauthBase: "SHOPIFY_OAUTH_BASE",
    },
  },
  sopyo: {
    kind: "shop",
    systemType: 6,
    flow: "form",
    storeParams: ["store", "shop"],
  },
  // No API: connected through the files JetStok exports and imports; confirming opens its connection card.
  jetstok: { kind: "shop", systemType: 7, flow: "form", storeParams: [] },
  shopier: {
    kind: "erp",
    systemType: 20,
    flow: "form",
    storeParams: ["store", "shop"],
  },
};

export const PARTNER_ENTRIES: readonly PartnerEntry[] = /* @__PURE__ */ PARTNER_PRODUCTS.map((product) => ({
  product,
  ...ENTRIES[product],
  name: nameOf(ENTRIES[product], product),
}));

export function partnerEntry(product: string): PartnerEntry | undefined {
  return PARTNER_ENTRIES.find((e) => e.product === product);
}

/** The store a link names (`?shop=…`, `?domain=…`, …), trimmed; empty when none. */
export function partnerStore(entry: PartnerEntry, params: URLSearchParams): string {
  for (const name of entry.storeParams) {
    const value = params.get(name)?.trim();
    if (value) return value;
  }
  return "";
}
