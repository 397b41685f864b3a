/**
 * Amazon's runtime rules (src/testing/runtime-rules.ts): what the Swagger models cannot show — the LWA
 * access token header, the Orders v0 reads' deprecation and the XML feeds' removal (dated), the
 * JSON_LISTINGS_FEED's own five per five minutes, every operation's usage plan as a token bucket, the
 * upload's content type, searchOrders' date rules and its paging contract. Each with its sources;
 * VERIFIED.md lists them (a test checks).
 */

import type { RecordedRequest } from "../../testing/recorder";
import type { RuleSource, RuntimeRule } from "../../testing/runtime-rules";
import { AMAZON_LISTINGS_FEED_LIMIT, AMAZON_USAGE_PLANS } from "../descriptor";
import { AMAZON_RETURNS_REPORT_MAX_DAYS, AMAZON_RETURNS_REPORT_TYPE } from "./returns-report";

const DOCS = "https://developer-docs.amazon.com/sp-api";
const MODELS = "amzn/selling-partner-api-models@34dc93fe";
const SALEWEAVER = "saleweaver/python-amazon-sp-api@0b7646db";
const SRC = {
  connect: {
    kind: "vendor-doc",
    ref: `${DOCS}/docs/connecting-to-the-selling-partner-api`,
    says: "an LWA access token must be included in calls to all operations; request it from https://api.amazon.com/auth/o2/token with grant_type=refresh_token",
  },
  sigv4: {
    kind: "vendor-changelog",
    ref: `${DOCS}/changelog/sp-api-will-no-longer-require-aws-iam-or-aws-signature-version-4`,
    says: "from 2 Oct 2023 no AWS IAM and no Signature Version 4; LWA access tokens for each request",
  },
  saleweaverHeaders: {
    kind: "public-code",
    ref: `${SALEWEAVER}:sp_api/base/client.py`,
    says: "headers: host, user-agent, x-amz-access-token (or the restricted data token), x-amz-date, content-type",
  },
  ordersV2026: {
    kind: "vendor-changelog",
    ref: `${DOCS}/changelog/new-introducing-the-orders-api-v2026-01-01`,
    says: "getOrders, getOrder, getOrderBuyerInfo, getOrderAddress, getOrderItems, getOrderItemsBuyerInfo scheduled for deprecation and removal; migrate by March 27, 2027",
  },
  ordersModel: {
    kind: "vendor-schema",
    ref: `${MODELS}:models/orders-api-model/ordersV0.json`,
    says: "the six v0 read operations carry deprecated: true; updateShipmentStatus, confirmShipment and the regulated-info operations do not",
  },
  xmlRemoved: {
    kind: "vendor-changelog",
    ref: `${DOCS}/changelog/update-removal-date-of-feeds-api-support-for-xml-and-flat-file-listings-feeds-changed-to-july-31-2025-1`,
    says: "POST_PRODUCT_DATA, POST_INVENTORY_AVAILABILITY_DATA, POST_PRODUCT_PRICING_DATA … no longer functional starting July 31, 2025",
  },
  feedTypes: {
    kind: "vendor-doc",
    ref: `${DOCS}/docs/listings-feed-type-values`,
    says: "from July 31, 2025 legacy XML and flat file listing feeds get a fatal processingStatus; JSON_LISTINGS_FEED's rate limit differs from createFeed's",
  },
  feedLimit: {
    kind: "vendor-changelog",
    ref: `${DOCS}/changelog/update-feed-size-and-rate-limit-changes-for-the-json_listings_feed`,
    says: "JSON_LISTINGS_FEED: 25,000 items per feed; five feed submissions per five minutes per region",
  },
  usagePlans: {
    kind: "vendor-schema",
    ref: `${MODELS}:models/*/*.json (each operation's "Usage Plan" table)`,
    says: "default rate (requests per second) and burst per operation; x-amzn-RateLimit-Limit gives the applied rate",
  },
  feedsLimits: {
    kind: "vendor-doc",
    ref: `${DOCS}/docs/feeds-api-rate-limits`,
    says: "an operation can have multiple rate limits; requests are rate-limited by whichever threshold you reach first",
  },
  uploadSaleweaver: {
    kind: "public-code",
    ref: `${SALEWEAVER}:sp_api/api/feeds/feeds_2021_06_30.py (create_feed_document)`,
    says: "PUTs the document to the returned url with Content-Type = the content_type passed to createFeedDocument",
  },
  uploadPeddler: {
    kind: "public-code",
    ref: "https://rubydoc.info/gems/peddler/Peddler/Helpers/Feeds20210630 (upload_feed_document, lib/peddler/helpers/feeds_2021_06_30.rb)",
    says: "the upload_url is signed: the Host and content-type headers must match the signing, i.e. the content-type requested in create_feed_document",
  },
  searchDates: {
    kind: "vendor-schema",
    ref: `${MODELS}:models/orders-api-model/orders_2026-01-01.json (searchOrders createdAfter / lastUpdatedBefore)`,
    says: "exactly one of createdAfter and lastUpdatedAfter; lastUpdatedBefore ≥ lastUpdatedAfter and at least two minutes before the request",
  },
  searchDatesV0: {
    kind: "vendor-schema",
    ref: `${MODELS}:models/orders-api-model/ordersV0.json (getOrders LastUpdatedBefore)`,
    says: "LastUpdatedBefore must be no later than two minutes before the time that the request was submitted",
  },
  paging: {
    kind: "vendor-schema",
    ref: `${MODELS}:models/orders-api-model/orders_2026-01-01.json (SearchOrdersResponse.pagination)`,
    says: "all other parameters must be provided with the same values … except maxResultsPerPage and includedData; the token expires after 24 hours",
  },
  pagingSaleweaver: {
    kind: "public-code",
    ref: `${SALEWEAVER}:sp_api/api/orders/orders_2026_01_01.py (search_orders)`,
    says: "passes paginationToken together with the caller's other keyword arguments",
  },
  returnsReportPage: {
    kind: "vendor-doc",
    ref: `${DOCS}/docs/returns-reports-attributes`,
    says: "GET_FLAT_FILE_RETURNS_DATA_BY_RETURN_DATE: tab-delimited flat file; you can request up to 60 days of data in a single report",
  },
  returnsReportAirbyte: {
    kind: "public-code",
    ref: "airbytehq/airbyte@1b0afce7:airbyte-integrations/connectors/source-amazon-seller-partner/source_amazon_seller_partner/schemas/GET_FLAT_FILE_RETURNS_DATA_BY_RETURN_DATE.json",
    says: "the report's 32 columns (Order ID … Refunded Amount), every value a string",
  },
} satisfies Record<string, RuleSource>;

/** The operations the rules tell apart, by method and path (the judge knows every one of the models). */
const OPERATIONS: Array<[string, string, RegExp]> = [
  ["searchOrders", "GET", /\/orders\/2026-01-01\/orders$/],
  ["getOrder", "GET", /\/orders\/2026-01-01\/orders\/[^/]+$/],
  ["confirmShipment", "POST", /\/orders\/v0\/orders\/[^/]+\/shipmentConfirmation$/],
  ["createFeedDocument", "POST", /\/feeds\/2021-06-30\/documents$/],
  ["createFeed", "POST", /\/feeds\/2021-06-30\/feeds$/],
  ["getFeed", "GET", /\/feeds\/2021-06-30\/feeds\/[^/]+$/],
  ["getFeedDocument", "GET", /\/feeds\/2021-06-30\/documents\/[^/]+$/],
  ["searchListingsItems", "GET", /\/listings\/2021-08-01\/items\/[^/]+$/],
  ["getListingsItem", "GET", /\/listings\/2021-08-01\/items\/[^/]+\/[^/]+$/],
  ["putListingsItem", "PUT", /\/listings\/2021-08-01\/items\/[^/]+\/[^/]+$/],
  ["searchDefinitionsProductTypes", "GET", /\/definitions\/2020-09-01\/productTypes$/],
  ["getDefinitionsProductType", "GET", /\/definitions\/2020-09-01\/productTypes\/[^/]+$/],
  ["createRestrictedDataToken", "POST", /\/tokens\/2021-03-01\/restrictedDataToken$/],
  ["createReport", "POST", /\/reports\/2021-06-30\/reports$/],
  ["getReport", "GET", /\/reports\/2021-06-30\/reports\/[^/]+$/],
  ["getReportDocument", "GET", /\/reports\/2021-06-30\/documents\/[^/]+$/],
];
export function ruleOperation(method: string, path: string): string | undefined {
  return OPERATIONS.find(([, m, re]) => m === method && re.test(path))?.[0];
}

const V0_DEPRECATED = /\/orders\/v0\/orders(\/[^/]+(\/(buyerInfo|address|orderItems(\/buyerInfo)?))?)?$/;
/** Listings feed types removed on 31 July 2025. */
export const REMOVED_FEED_TYPES = [
  "POST_PRODUCT_DATA",
  "POST_INVENTORY_AVAILABILITY_DATA",
  "POST_PRODUCT_OVERRIDES_DATA",
  "POST_PRODUCT_PRICING_DATA",
  "POST_PRODUCT_IMAGE_DATA",
  "POST_PRODUCT_RELATIONSHIP_DATA",
  "POST_FLAT_FILE_INVLOADER_DATA",
  "POST_FLAT_FILE_BOOKLOADER_DATA",
  "POST_FLAT_FILE_CONVERGENCE_LISTINGS_DATA",
  "POST_FLAT_FILE_LISTINGS_DATA",
  "POST_FLAT_FILE_PRICEANDQUANTITYONLY_UPDATE_DATA",
  "POST_UIEE_BOOKLOADER_DATA",
];

const isSpApi = (r: RecordedRequest) =>
  !/\/auth\/o2\/token$|\/feed-(uploads|downloads)\/|\/product-type-schemas\//.test(r.path);
const header = (r: RecordedRequest, name: string) => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};
const q = (r: RecordedRequest, k: string) => (r.query?.[k] === undefined ? undefined : String(r.query[k]));

/** Tokens left in an operation's bucket just before `r`, from the requests before it. */
export function tokensBefore(
  earlier: readonly RecordedRequest[],
  operation: string,
  at: number,
  plan: { rate: number; burst: number },
): number {
  let tokens = plan.burst;
  let last: number | undefined;
  for (const e of earlier) {
    if (ruleOperation(e.method, e.path) !== operation) continue;
    if (last !== undefined) tokens = Math.min(plan.burst, tokens + ((e.at - last) / 1000) * plan.rate);
    last = e.at;
    tokens -= 1;
  }
  if (last !== undefined) tokens = Math.min(plan.burst, tokens + ((at - last) / 1000) * plan.rate);
  return tokens;
}

export interface AmazonRuleOptions {
  /** Usage plan rates multiplied (tests, sandboxes); the emulator advertises the same in x-amzn-RateLimit-Limit. */
  rateScale?: number;
  /** The JSON_LISTINGS_FEED window (five per five minutes), scaled by tests. */
  feedWindowMs?: number;
}

export function amazonRules(opts: AmazonRuleOptions = {}): RuntimeRule[] {
  const scale = opts.rateScale ?? 1;
  const feedWindow = opts.feedWindowMs ?? AMAZON_LISTINGS_FEED_LIMIT.windowMs;
  return [
    {
      id: "amazon.access-token",
      kind: "required-header",
      description:
        "Every SP-API request carries the LWA access token in x-amz-access-token (no SigV4 needed).",
      sources: [SRC.connect, SRC.sigv4, SRC.saleweaverHeaders],
      check: (r) =>
        isSpApi(r) && !/^Atza\|/.test(String(header(r, "x-amz-access-token") ?? ""))
          ? ["x-amz-access-token missing or not an LWA access token (Atza|…)"]
          : [],
    },
    {
      id: "amazon.orders-v0-reads-deprecated",
      kind: "version-dated",
      since: "2026-01-01",
      description:
        "Orders v0 reads (getOrders, getOrder, getOrderItems, address and buyer info) are deprecated; removal 2027-03-27.",
      sources: [SRC.ordersV2026, SRC.ordersModel],
      check: (r) =>
        r.method === "GET" && V0_DEPRECATED.test(r.path)
          ? ["Orders v0 read: deprecated, removed 27 March 2027 (use Orders v2026-01-01)"]
          : [],
    },
    {
      id: "amazon.xml-feeds-removed",
      kind: "version-dated",
      since: "2025-07-31",
      description:
        "XML and flat-file listings feed types (POST_INVENTORY_AVAILABILITY_DATA …) are removed; JSON_LISTINGS_FEED replaces them.",
      sources: [SRC.xmlRemoved, SRC.feedTypes],
      check: (r) => {
        if (ruleOperation(r.method, r.path) !== "createFeed") return [];
        const type = String((r.body as { feedType?: unknown } | undefined)?.feedType ?? "");
        return REMOVED_FEED_TYPES.includes(type) ? [`feed type ${type} was removed on 31 July 2025`] : [];
      },
    },
    {
      id: "amazon.listings-feed-5-per-5-min",
      kind: "required-sequence",
      description: "At most five JSON_LISTINGS_FEED submissions in any five minutes (per region).",
      sources: [SRC.feedLimit, SRC.feedTypes, SRC.feedsLimits],
      check: (r, earlier) => {
        const isListingsFeed = (e: RecordedRequest) =>
          ruleOperation(e.method, e.path) === "createFeed" &&
          (e.body as { feedType?: unknown } | undefined)?.feedType === "JSON_LISTINGS_FEED";
        if (!isListingsFeed(r)) return [];
        const within = earlier.filter((e) => isListingsFeed(e) && e.at > r.at - feedWindow).length;
        return within >= AMAZON_LISTINGS_FEED_LIMIT.requests
          ? [`a sixth JSON_LISTINGS_FEED within ${feedWindow / 1000} s`]
          : [];
      },
    },
    {
      id: "amazon.returns-report-60-days",
      kind: "facet",
      description:
        "A returns report covers at most 60 days of return requests (dataStartTime … dataEndTime).",
      sources: [SRC.returnsReportPage, SRC.returnsReportAirbyte],
      check: (r) => {
        if (ruleOperation(r.method, r.path) !== "createReport") return [];
        const b = (r.body ?? {}) as { reportType?: unknown; dataStartTime?: unknown; dataEndTime?: unknown };
        if (b.reportType !== AMAZON_RETURNS_REPORT_TYPE) return [];
        const days = (Date.parse(String(b.dataEndTime)) - Date.parse(String(b.dataStartTime))) / 86_400_000;
        return Number.isNaN(days) || days > AMAZON_RETURNS_REPORT_MAX_DAYS
          ? [`returns report over ${AMAZON_RETURNS_REPORT_MAX_DAYS} days (or without its window)`]
          : [];
      },
    },
    {
      id: "amazon.usage-plan",
      kind: "required-sequence",
      description: "Each operation keeps its usage plan: a token bucket of its rate (per second) and burst.",
      sources: [SRC.usagePlans, SRC.feedsLimits],
      check: (r, earlier) => {
        const op = ruleOperation(r.method, r.path);
        const plan = op ? AMAZON_USAGE_PLANS[op] : undefined;
        if (!op || !plan) return [];
        const left = tokensBefore(earlier, op, r.at, { rate: plan.rate * scale, burst: plan.burst });
        return left < 1
          ? [`${op} over its usage plan (rate ${plan.rate * scale}/s, burst ${plan.burst})`]
          : [];
      },
    },
    {
      id: "amazon.feed-upload-content-type",
      kind: "required-header",
      description:
        "The document is PUT to its presigned URL with the content type given to createFeedDocument.",
      sources: [SRC.uploadPeddler, SRC.uploadSaleweaver],
      check: (r, earlier) => {
        if (!/\/feed-uploads\//.test(r.path)) return [];
        const created = [...earlier]
          .reverse()
          .find((e) => ruleOperation(e.method, e.path) === "createFeedDocument");
        const want = String((created?.body as { contentType?: unknown } | undefined)?.contentType ?? "");
        const got = String(header(r, "content-type") ?? "");
        return got !== want
          ? [`upload Content-Type '${got}' is not '${want}' given to createFeedDocument`]
          : [];
      },
    },
    {
      id: "amazon.search-orders-dates",
      kind: "facet",
      description:
        "searchOrders: exactly one of createdAfter / lastUpdatedAfter; lastUpdatedBefore ≥ lastUpdatedAfter and ≥ 2 minutes old.",
      sources: [SRC.searchDates, SRC.searchDatesV0],
      check: (r) => {
        if (ruleOperation(r.method, r.path) !== "searchOrders") return [];
        const p: string[] = [];
        const ca = q(r, "createdAfter");
        const ua = q(r, "lastUpdatedAfter");
        const ub = q(r, "lastUpdatedBefore");
        if ((ca === undefined) === (ua === undefined))
          p.push("exactly one of createdAfter and lastUpdatedAfter");
        if (ca !== undefined && (ua !== undefined || ub !== undefined))
          p.push("createdAfter excludes lastUpdatedAfter / lastUpdatedBefore");
        if (ub !== undefined) {
          if (ua !== undefined && Date.parse(ub) < Date.parse(ua))
            p.push("lastUpdatedBefore before lastUpdatedAfter");
          if (Date.parse(ub) > r.at - 2 * 60_000)
            p.push("lastUpdatedBefore less than two minutes before the request");
        }
        return p;
      },
    },
    {
      id: "amazon.pagination-same-parameters",
      kind: "required-sequence",
      description:
        "A searchOrders page by paginationToken repeats every parameter but maxResultsPerPage and includedData.",
      sources: [SRC.paging, SRC.pagingSaleweaver],
      check: (r, earlier) => {
        if (ruleOperation(r.method, r.path) !== "searchOrders" || q(r, "paginationToken") === undefined)
          return [];
        const prev = [...earlier].reverse().find((e) => ruleOperation(e.method, e.path) === "searchOrders");
        if (!prev) return ["a paginationToken without the request that gave it"];
        const fixed = (x: RecordedRequest) =>
          JSON.stringify(
            Object.entries(x.query ?? {})
              .filter(([k]) => !["maxResultsPerPage", "includedData", "paginationToken"].includes(k))
              .sort(([a], [b]) => a.localeCompare(b)),
          );
        return fixed(prev) === fixed(r)
          ? []
          : ["parameters differ from the request that gave the paginationToken"];
      },
    },
  ];
}
