/**
 * Trendyol e-Faturam's runtime rules (src/testing/runtime-rules.ts): what the transcribed request schemas
 * (requests.json) cannot say, each with its sources (VERIFIED.md lists them and where sources disagree).
 * The contract test applies them to every recorded request; the emulator refuses what they refuse with
 * the gateway's RFC 7807 problem (422 `ValidationProblem`).
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuleSource, RuntimeRule } from "../../testing/runtime-rules";

const MARKETPLACE_HUB: RuleSource = {
  kind: "public-code",
  ref: "code ids 57907134577, 57996721174 (C# adapter run against stage and production: TrendyolEFaturamHttpClient, endpoints)",
  says: "download body documentType EARCHIVE for an e-Arsiv, EINVOICE for TEMELFATURA/TICARIFATURA; PORTAL for a company's own account, PARTNER only for customerSignIn sessions",
};
const VENDOR_PAGE: RuleSource = {
  kind: "vendor-doc",
  ref: "code id 53199723629 (markdown copy of the vendor's createOutgoingEInvoice page)",
  says: "source [PORTAL, WEB, MOBILE, PARTNER]: PARTNER is for marketplace integrators; companyId/userId come from the token or customerSignIn",
};
const DRIVER_REFERENCE: RuleSource = {
  kind: "public-code",
  ref: "code id 66997853219 (third-party driver's API reference from saved vendor doc pages)",
  says: "POST /api/auth/signin {email,password}; the JWT comes back in the x-access-token header and every other call carries it",
};
const PARTNER_CLIENT: RuleSource = {
  kind: "public-code",
  ref: "code id 65717719373 (integration plan), code id 53099424262 (e-Arsiv client)",
  says: "partner sign-in, then POST /api/invoice/partners/customer/signin with the partner token gives the customer's token, userId, companyId",
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const CREATE = /^\/api\/invoice\/(v2\/)?documents\/(earchive|outgoing-einvoice)$/;
const CUSTOMER_SIGNIN = "/api/invoice/partners/customer/signin";

/** The document types the download takes (the e-Fatura one is `EINVOICE`, not a name of our own). */
export const TRENDYOL_DOWNLOAD_TYPES = ["EARCHIVE", "EINVOICE"] as const;

const LIVE_BODY: RuleSource = {
  kind: "public-code",
  ref: "code id 58089429037 (a live integration's create-body builder)",
  says: "itemName cut to 255 characters, recipient name to 127, surname to 255",
};

/** Longest line item name the gateway takes (the vendor page gives none; live code cuts at 255). */
export const TRENDYOL_ITEM_NAME_MAX = 255;

export const trendyolEFaturamRules: RuntimeRule[] = [
  {
    id: "trendyol-efaturam.line.item-name-length",
    kind: "facet",
    description: `A line's itemName has 1 to ${TRENDYOL_ITEM_NAME_MAX} characters.`,
    sources: [LIVE_BODY],
    check: (r) => {
      if (r.method !== "POST" || !CREATE.test(r.path) || !isObj(r.body)) return [];
      const lines = Array.isArray(r.body.invoiceLines) ? r.body.invoiceLines : [];
      return lines.flatMap((l, i) => {
        const name = isObj(l) && typeof l.itemName === "string" ? l.itemName : "";
        return name.length >= 1 && name.length <= TRENDYOL_ITEM_NAME_MAX
          ? []
          : [`invoiceLines[${i}].itemName has ${name.length} characters (1..${TRENDYOL_ITEM_NAME_MAX})`];
      });
    },
  },
  {
    id: "trendyol-efaturam.download.document-type",
    kind: "value-set",
    description: "A document download names its type EARCHIVE (e-Arsiv) or EINVOICE (outgoing e-Fatura).",
    sources: [
      MARKETPLACE_HUB,
      {
        kind: "public-code",
        ref: "shared/partner-apis/erps.md section 16 (one third-party client)",
        says: 'download body {companyId, documentType:"EARCHIVE", fileExtension, invoiceUuid}',
      },
    ],
    check: (r) => {
      if (r.method !== "POST" || !r.path.startsWith("/api/invoice/documents/download")) return [];
      const type = isObj(r.body) ? r.body.documentType : undefined;
      return (TRENDYOL_DOWNLOAD_TYPES as readonly unknown[]).includes(type)
        ? []
        : [`documentType ${JSON.stringify(type)} is none of ${TRENDYOL_DOWNLOAD_TYPES.join(", ")}`];
    },
  },
  {
    id: "trendyol-efaturam.create.source",
    kind: "value-set",
    description:
      "A document created in a company's own session says source PORTAL; PARTNER only after a partner's customer sign-in.",
    sources: [VENDOR_PAGE, MARKETPLACE_HUB],
    check: (r, earlier) => {
      if (r.method !== "POST" || !CREATE.test(r.path) || !isObj(r.body)) return [];
      const partner = earlier.some((e) => e.path === CUSTOMER_SIGNIN);
      const source = r.body.source;
      if (source === "PARTNER" && !partner) return ["source PARTNER without a partner customer sign-in"];
      if (source !== "PARTNER" && source !== "PORTAL" && !partner)
        return [`source ${JSON.stringify(source)}: a company's own session creates as PORTAL`];
      return [];
    },
  },
  {
    id: "trendyol-efaturam.auth.signin-first",
    kind: "required-sequence",
    description: "Every call but sign-in follows a sign-in (its token goes in x-access-token).",
    sources: [DRIVER_REFERENCE, MARKETPLACE_HUB, PARTNER_CLIENT],
    check: (r: RecordedRequest, earlier) => {
      if (r.path === "/api/auth/signin" || !r.path.startsWith("/api/")) return [];
      return earlier.some((e) => e.method === "POST" && e.path === "/api/auth/signin")
        ? []
        : [`${r.method} ${r.path} before any sign-in`];
    },
  },
];

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const TRENDYOL_EFATURAM_VERSION_PIN: ApiVersionPin = {
  system: "trendyol-efaturam",
  api: "Trendyol e-Faturam API gateway",
  version: "1.0.0 (unversioned api/invoice paths)",
  endOfSupport: null,
  noDateReason: "the gateway publishes no versions or retirement dates (its OpenApi pages say 1.0.0)",
  source:
    "vendor page copy code id 53199723629; MarketplaceHub adapter code id 57959588829 (SourceVersion 1.0.0)",
};
