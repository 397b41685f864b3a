import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { judgeShopifyRequest } from "./conformance";
import {
  DEV_MCP_VERSION,
  deriveShopifySchema,
  latestStableAdminVersion,
  packDevMcp,
  SHOPIFY_API_VERSION,
} from "./derive-schema";
import { changeFromQuantityRule } from "./rules";
import { SHOPIFY_SDL_PATH, shopifyJudgeSchema } from "./schema";

describe(`Shopify Admin ${SHOPIFY_API_VERSION} schema from @shopify/dev-mcp@${DEV_MCP_VERSION}`, () => {
  it("is checked in exactly as the pinned package derives it (npm pack, cached by npm)", () => {
    const artifact = packDevMcp();
    expect(latestStableAdminVersion(artifact.versions)).toBe(SHOPIFY_API_VERSION);
    const derived = deriveShopifySchema(artifact);
    expect(derived.queries).toBeGreaterThan(200);
    expect(derived.mutations).toBeGreaterThan(400);
    // Fails when the package or the derivation changes: run `npm run derive:shopify -w @ep/connectors`.
    expect(derived.sdl === readFileSync(SHOPIFY_SDL_PATH, "utf8")).toBe(true);
  }, 120_000);

  it("refuses a version the package does not call latest stable", () => {
    const versions = {
      admin: [
        { name: "2026-10", releaseCandidate: true },
        { name: "2026-07", latestVersion: true },
      ],
    };
    expect(() => deriveShopifySchema({ versions, introspection: {} }, "2026-04")).toThrow(
      /not the package's latest stable/,
    );
  });

  it("has the operations the connector needs, with Shopify's input types", () => {
    const schema = shopifyJudgeSchema();
    const m = schema.getMutationType()?.getFields() ?? {};
    for (const f of [
      "productSet",
      "productVariantsBulkUpdate",
      "inventorySetQuantities",
      "fulfillmentCreate",
      "orderMarkAsPaid",
      "bulkOperationRunQuery",
      "metafieldsSet",
    ]) {
      expect(m[f], f).toBeDefined();
    }
    expect(String(schema.getType("InventoryQuantityInput")?.toString())).toBe("InventoryQuantityInput");
  });

  it("judges documents and variables as the real API would", () => {
    const unknownField = judgeShopifyRequest({ query: "query Q { shop { nameX } }" });
    expect(unknownField.errors.join()).toMatch(/Cannot query field "nameX" on type "Shop"/);
    const badVars = judgeShopifyRequest({
      query:
        "mutation M($input: OrderMarkAsPaidInput!) { orderMarkAsPaid(input: $input) { userErrors { message } } }",
      variables: { input: { orderId: "gid://shopify/Order/1" } },
    });
    expect(badVars.errors.join("\n")).toMatch(/"id" of required type "ID!" was not provided/);
    const row = {
      inventoryItemId: "gid://shopify/InventoryItem/1",
      locationId: "gid://shopify/Location/1",
      quantity: 3,
    };
    const setInput = (quantities: object[]) => ({
      input: { name: "available", reason: "correction", quantities },
    });
    const ok = judgeShopifyRequest({
      query:
        "mutation S($input: InventorySetQuantitiesInput!) { inventorySetQuantities(input: $input) { userErrors { code } } }",
      variables: setInput([{ ...row, changeFromQuantity: null }]),
    });
    expect(ok).toMatchObject({ operation: "mutation S", errors: [] });
    const withoutChangeFrom = setInput([row]);
    const omitted = judgeShopifyRequest({ query: ok.document, variables: withoutChangeFrom });
    // Nullable in the schema: the schema judge passes it, the runtime rule does not.
    expect(omitted.errors).toEqual([]);
    const asRecorded = {
      at: 0,
      method: "POST",
      path: "/admin/api/2026-07/graphql.json",
      query: {},
      headers: {},
      body: { query: ok.document, variables: withoutChangeFrom },
    };
    expect(changeFromQuantityRule.check(asRecorded, []).join()).toMatch(/changeFromQuantity must be sent/);
    const bulk = judgeShopifyRequest({
      query:
        "mutation B($query: String!) { bulkOperationRunQuery(query: $query) { userErrors { message } } }",
      variables: { query: "{ products { edges { node { id skuX } } } }" },
    });
    expect(bulk.errors.join()).toMatch(/bulk query: Cannot query field "skuX" on type "Product"/);
  });
});
