/**
 * Shopier's runtime rules (src/testing/runtime-rules.ts): what the request shapes derived from
 * `@bbangg/shopier` (shopier-api.generated.json) cannot say, each with its sources (VERIFIED.md lists them).
 * The contract test applies them to every recorded request; the emulator refuses what they refuse with
 * the error body shopier-go parses (`{error, message}`).
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuleSource, RuntimeRule } from "../../testing/runtime-rules";
import ruleSources from "./rule-sources.json" with { type: "json" };
import fixture from "./shopier-api.generated.json" with { type: "json" };

/** Where each rule comes from (rule-sources.json: kind, ref, what it says). */
const SRC = ruleSources as Record<keyof typeof ruleSources, RuleSource>;

export const SHOPIER_MAX_LIMIT = 50;
const TOKEN_PATH = "/v1/oauth2/token";
const isApiGet = (r: RecordedRequest) => r.method === "GET" && r.path.startsWith("/v1/");

export const shopierRules: RuntimeRule[] = [
  {
    id: "shopier.auth.bearer",
    kind: "required-header",
    description:
      "Every API call carries Authorization: Bearer with a personal access token or an OAuth access token.",
    sources: [SRC.ts_sdk, SRC.go_sdk, SRC.live_sync],
    check: (r) => {
      if (!isApiGet(r)) return [];
      const auth = r.headers.authorization;
      return typeof auth === "string" && /^Bearer \S+$/.test(auth)
        ? []
        : ["Authorization: Bearer <token> missing"];
    },
  },
  {
    id: "shopier.list.limit",
    kind: "facet",
    description: `A list's limit is an integer from 1 to ${SHOPIER_MAX_LIMIT}.`,
    sources: [SRC.go_sdk, SRC.live_sync],
    check: (r) => {
      if (!isApiGet(r) || r.query.limit === undefined) return [];
      const n = Number(r.query.limit);
      return Number.isInteger(n) && n >= 1 && n <= SHOPIER_MAX_LIMIT
        ? []
        : [`limit ${String(r.query.limit)} outside 1..${SHOPIER_MAX_LIMIT}`];
    },
  },
  {
    id: "shopier.list.sort",
    kind: "value-set",
    description: `A list's sort is one of ${fixture.sortValues.join(", ")}.`,
    sources: [SRC.ts_sdk, SRC.erps_notes],
    check: (r) => {
      if (!isApiGet(r) || r.query.sort === undefined) return [];
      return fixture.sortValues.includes(String(r.query.sort))
        ? []
        : [`sort ${String(r.query.sort)} is none of ${fixture.sortValues.join(", ")}`];
    },
  },
  {
    id: "shopier.oauth.refresh-form",
    kind: "required-sequence",
    description:
      "An OAuth token request is a form with grant_type refresh_token (or authorization_code), client_id, client_secret and the refresh token (or code).",
    sources: [SRC.go_sdk],
    check: (r) => {
      if (r.method !== "POST" || r.path !== TOKEN_PATH) return [];
      const b = (r.body ?? {}) as Record<string, unknown>;
      const grant = b.grant_type;
      const need =
        grant === "refresh_token"
          ? ["client_id", "client_secret", "refresh_token"]
          : grant === "authorization_code"
            ? ["client_id", "client_secret", "code"]
            : undefined;
      if (!need)
        return [`grant_type ${JSON.stringify(grant)} is neither refresh_token nor authorization_code`];
      return need.filter((k) => typeof b[k] !== "string" || b[k] === "").map((k) => `${k} missing`);
    },
  },
];

/** Whether the judge knows `r` as the token request (its shape is the rule above). */
export const isShopierTokenRequest = (r: RecordedRequest) => r.method === "POST" && r.path === TOKEN_PATH;

/** The API version this connector speaks (`expectPinnedVersionSupported` in its contract test). */
export const SHOPIER_VERSION_PIN: ApiVersionPin = {
  system: "shopier",
  api: "Shopier REST API",
  version: "v1",
  endOfSupport: null,
  noDateReason: "Shopier publishes no API versions or retirement dates; the path carries v1",
  source:
    "@bbangg/shopier and shopier-go base URL https://api.shopier.com/v1; developer.shopier.com (no deprecation policy found)",
};
