/**
 * Trendyol e-Faturam's runtime rules (src/testing/runtime-rules.ts): what the transcribed request schemas
 * (requests.json) cannot say, each with its sources (VERIFIED.md lists them and where sources disagree).
 * The contract test applies them to every recorded request; the emulator refuses what they refuse with
 * the gateway's RFC 7807 problem (422 `ValidationProblem`).
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuleSource, RuntimeRule } from "../../testing/runtime-rules";
import ruleSources from "./rule-sources.json" with { type: "json" };

/** Where each rule comes from (rule-sources.json: kind, ref, what it says). */
const SRC = ruleSources as Record<keyof typeof ruleSources, RuleSource>;

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const CREATE = /^\/api\/invoice\/(v2\/)?documents\/(earchive|outgoing-einvoice)$/;
const CUSTOMER_SIGNIN = "/api/invoice/partners/customer/signin";

/** The document types the download takes (the e-Fatura one is `EINVOICE`, not a name of our own). */
export const TRENDYOL_DOWNLOAD_TYPES = ["EARCHIVE", "EINVOICE"] as const;

/** Longest line item name the gateway takes (the vendor page gives none; live code cuts at 255). */
export const TRENDYOL_ITEM_NAME_MAX = 255;

export const trendyolEFaturamRules: RuntimeRule[] = [
  {
    id: "trendyol-efaturam.line.item-name-length",
    kind: "facet",
    description: `A line's itemName has 1 to ${TRENDYOL_ITEM_NAME_MAX} characters.`,
    sources: [SRC.live_body],
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
    sources: [SRC.marketplace_hub, SRC.erps_notes],
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
    sources: [SRC.vendor_page, SRC.marketplace_hub],
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
    sources: [SRC.driver_reference, SRC.marketplace_hub, SRC.partner_client],
    check: (r: RecordedRequest, earlier) => {
      if (r.path === "/api/auth/signin" || !r.path.startsWith("/api/")) return [];
      return earlier.some((e) => e.method === "POST" && e.path === "/api/auth/signin")
        ? []
        : [`${r.method} ${r.path} before any sign-in`];
    },
  },
  {
    id: "trendyol-efaturam.earchive.internet-sale",
    kind: "required-directive",
    description:
      "An e-Arsiv sale (the panel's are internet sales) carries paymentInfo {purchaseUrl, paymentMeans, paymentDate} and deliveryInfo {carrierName, sentAt}.",
    sources: [SRC.partner_plan, SRC.live_body_internet],
    check: (r) => {
      if (r.method !== "POST" || !CREATE.test(r.path) || !r.path.endsWith("/earchive") || !isObj(r.body))
        return [];
      const info = isObj(r.body.invoiceInfo) ? r.body.invoiceInfo : {};
      if (info.invoiceTypeCode !== "SATIS") return [];
      const payment = isObj(r.body.paymentInfo) ? r.body.paymentInfo : undefined;
      const delivery = isObj(r.body.deliveryInfo) ? r.body.deliveryInfo : undefined;
      const problems: string[] = [];
      if (!payment) problems.push("an e-Arsiv sale without paymentInfo");
      else
        for (const k of ["purchaseUrl", "paymentMeans", "paymentDate"])
          if (typeof payment[k] !== "string" || !payment[k]) problems.push(`paymentInfo without ${k}`);
      if (!delivery) problems.push("an e-Arsiv sale without deliveryInfo");
      else
        for (const k of ["carrierName", "sentAt"])
          if (typeof delivery[k] !== "string" || !delivery[k]) problems.push(`deliveryInfo without ${k}`);
      return problems;
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
