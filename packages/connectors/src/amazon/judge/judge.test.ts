/**
 * The Amazon judge is Amazon's own models read in place: it refuses what they refuse (so a clean
 * conformance line cannot come from a judge that accepts anything), the descriptor's usage plans are the
 * models' own, and without the models' snapshot it fails naming the repository.
 */

import { describe, expect, it } from "vitest";
import type { RecordedRequest } from "../../testing/recorder";
import { applyRuntimeRules } from "../../testing/runtime-rules";
import { AMAZON_USAGE_PLANS } from "../descriptor";
import { amazonJudge, usagePlanOf } from "./openapi";
import { amazonRules } from "./rules";
import { readSpApiFile, SP_API_MODELS } from "./source";

const judge = amazonJudge();
const TOKEN = { "x-amz-access-token": "Atza|abc", "user-agent": "EntegrasyonPaneli/1.0" };
const at = Date.parse("2026-11-28T12:00:00Z");
const req = (over: Partial<RecordedRequest>): RecordedRequest => ({
  at,
  method: "GET",
  path: "/orders/2026-01-01/orders",
  query: {
    marketplaceIds: "A33AVAJ2PDY3EV",
    lastUpdatedAfter: "2026-11-01T00:00:00.000Z",
    lastUpdatedBefore: "2026-11-28T11:50:00.000Z",
  },
  headers: TOKEN,
  body: undefined,
  ...over,
});
const problems = (r: RecordedRequest) => judge.judgeRequest(r).problems;
const ruleIds = (r: RecordedRequest, earlier: RecordedRequest[] = []) =>
  applyRuntimeRules(amazonRules(), r, earlier).map((v) => v.rule);

describe("Amazon judge (the SP-API models, read in place)", () => {
  it("reads the seven models at the pinned commit and knows their operations", () => {
    const ids = judge.routes.map((r) => r.operationId);
    for (const op of Object.keys(AMAZON_USAGE_PLANS)) expect(ids).toContain(op);
    expect(ids).toContain("getOrders"); // v0, deprecated in the model
  });

  it("the descriptor's usage plans are the models' own (re-read, so they cannot drift)", () => {
    for (const [op, plan] of Object.entries(AMAZON_USAGE_PLANS))
      expect(usagePlanOf(judge.route(op)?.op.description), op).toEqual(plan);
  });

  it("without the models' snapshot it fails, naming the repository", () => {
    const saved = process.env.AMAZON_SP_MODELS_REPO;
    process.env.AMAZON_SP_MODELS_REPO = "/nonexistent/amzn+selling-partner-api-models";
    try {
      expect(() => readSpApiFile("models/not-read-yet.json")).toThrow(SP_API_MODELS.repository);
    } finally {
      if (saved === undefined) delete process.env.AMAZON_SP_MODELS_REPO;
      else process.env.AMAZON_SP_MODELS_REPO = saved;
    }
  });

  it("accepts searchOrders as the connector sends it", () => {
    expect(
      problems(
        req({ query: { ...req({}).query, includedData: "BUYER,RECIPIENT", maxResultsPerPage: "100" } }),
      ),
    ).toEqual([]);
  });

  it("refuses a missing required parameter, an unknown one, a value outside an enum, and a deprecated operation", () => {
    // searchOrders does not require marketplaceIds (the model); searchListingsItems does.
    expect(
      problems(req({ path: "/listings/2021-08-01/items/A1", query: { includedData: "summaries" } })),
    ).toEqual(["query must have required property 'marketplaceIds' (marketplaceIds)"]);
    expect(problems(req({ query: { ...req({}).query, LastUpdatedAfter: "x" } }))).toEqual([
      "query must NOT have additional properties (LastUpdatedAfter)",
    ]);
    expect(problems(req({ query: { ...req({}).query, includedData: "BUYER,ADDRESS" } }))[0]).toMatch(
      /^query\/includedData\/1 must be equal to one of the allowed values/,
    );
    expect(
      problems(
        req({
          path: "/orders/v0/orders",
          query: { MarketplaceIds: "A33AVAJ2PDY3EV", LastUpdatedAfter: "2026-11-01T00:00:00Z" },
        }),
      ),
    ).toEqual(["getOrders is deprecated in ordersV0 (the model marks it so)"]);
  });

  it("refuses bodies the models refuse: createFeed without a document, confirmShipment without a tracking number", () => {
    const feed = req({
      method: "POST",
      path: "/feeds/2021-06-30/feeds",
      query: {},
      body: { feedType: "JSON_LISTINGS_FEED", marketplaceIds: ["A33AVAJ2PDY3EV"] },
    });
    expect(problems(feed)).toEqual([
      "body must have required property 'inputFeedDocumentId' (inputFeedDocumentId)",
    ]);
    const ship = req({
      method: "POST",
      path: "/orders/v0/orders/403-1234567-1234567/shipmentConfirmation",
      query: {},
      body: {
        marketplaceId: "A33AVAJ2PDY3EV",
        packageDetail: {
          packageReferenceId: "1",
          carrierCode: "Other",
          shipDate: "2026-11-28T10:00:00Z",
          orderItems: [{ orderItemId: "1", quantity: 1 }],
        },
      },
    });
    expect(problems(ship)).toEqual([
      "body/packageDetail must have required property 'trackingNumber' (trackingNumber)",
    ]);
  });

  it("refuses a feed document the JSON_LISTINGS_FEED schema refuses (PATCH without productType)", () => {
    const upload = req({
      method: "PUT",
      path: "/feed-uploads/doc-1",
      query: {},
      body: {
        header: { sellerId: "A1", version: "2.0" },
        messages: [
          {
            messageId: 1,
            sku: "S",
            operationType: "PATCH",
            patches: [{ op: "replace", path: "/attributes/x", value: [{}] }],
          },
        ],
      },
    });
    expect(problems(upload).join()).toContain("productType");
  });

  it("refuses an LWA request without the refresh token", () => {
    const lwa = req({
      method: "POST",
      path: "/auth/o2/token",
      query: {},
      body: { grant_type: "refresh_token", client_id: "c", client_secret: "s" },
    });
    expect(problems(lwa)).toEqual(["refresh_token missing"]);
  });
});

describe("Amazon runtime rules", () => {
  it("an SP-API call without an LWA access token", () => {
    expect(ruleIds(req({ headers: {} }))).toEqual(["amazon.access-token"]);
  });

  it("Orders v0 reads are deprecated; confirmShipment (v0) is not", () => {
    expect(ruleIds(req({ path: "/orders/v0/orders/403-1-1/orderItems", query: {} }))).toEqual([
      "amazon.orders-v0-reads-deprecated",
    ]);
    expect(
      ruleIds(req({ method: "POST", path: "/orders/v0/orders/403-1-1/shipmentConfirmation", query: {} })),
    ).toEqual([]);
  });

  it("an XML inventory feed is removed; a sixth listings feed in five minutes is over the limit", () => {
    const feed = (feedType: string, t = at) =>
      req({
        at: t,
        method: "POST",
        path: "/feeds/2021-06-30/feeds",
        query: {},
        body: { feedType, marketplaceIds: ["A33AVAJ2PDY3EV"], inputFeedDocumentId: "d" },
      });
    expect(ruleIds(feed("POST_INVENTORY_AVAILABILITY_DATA"))).toEqual(["amazon.xml-feeds-removed"]);
    // Spread out enough for createFeed's own bucket (15 burst), not for the feed type's five per five minutes.
    const five = [0, 1, 2, 3, 4].map((i) => feed("JSON_LISTINGS_FEED", at + i * 1000));
    expect(ruleIds(feed("JSON_LISTINGS_FEED", at + 10_000), five)).toEqual([
      "amazon.listings-feed-5-per-5-min",
    ]);
    expect(ruleIds(feed("JSON_LISTINGS_FEED", at + 301_000), five)).toEqual([]);
  });

  it("an operation over its usage plan: searchOrders' burst of 20, then one every 180 s", () => {
    const earlier = Array.from({ length: 20 }, (_, i) => req({ at: at + i }));
    expect(ruleIds(req({ at: at + 30 }), earlier)).toEqual(["amazon.usage-plan"]);
    expect(ruleIds(req({ at: at + 181_000 }), earlier)).toEqual([]);
  });

  it("the upload's content type must be createFeedDocument's", () => {
    const created = req({
      method: "POST",
      path: "/feeds/2021-06-30/documents",
      query: {},
      body: { contentType: "application/json; charset=UTF-8" },
    });
    const upload = req({
      method: "PUT",
      path: "/feed-uploads/d1",
      query: {},
      headers: { "content-type": "text/xml" },
    });
    expect(ruleIds(upload, [created])).toEqual(["amazon.feed-upload-content-type"]);
  });

  it("searchOrders' dates: both filters at once, a window closing less than two minutes ago", () => {
    const both = req({ query: { ...req({}).query, createdAfter: "2026-11-01T00:00:00Z" } });
    expect(ruleIds(both)).toEqual(["amazon.search-orders-dates"]);
    const fresh = req({ query: { ...req({}).query, lastUpdatedBefore: "2026-11-28T11:59:30Z" } });
    expect(ruleIds(fresh)).toEqual(["amazon.search-orders-dates"]);
  });

  it("a page by paginationToken must repeat the first request's parameters", () => {
    const first = req({});
    const moved = req({
      at: at + 1,
      query: { ...req({}).query, lastUpdatedBefore: "2026-11-28T11:55:00.000Z", paginationToken: "t" },
    });
    expect(ruleIds(moved, [first])).toEqual(["amazon.pagination-same-parameters"]);
    const same = req({
      at: at + 1,
      query: { ...req({}).query, paginationToken: "t", maxResultsPerPage: "50" },
    });
    expect(ruleIds(same, [first])).toEqual([]);
  });
});
