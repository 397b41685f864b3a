/**
 * Conformance: every request the Shopify connector sends is checked against Shopify's own artifact — the
 * GraphQL document (graphql-js `validate`) and its variables (coerced as a GraphQL server does) against the
 * pinned Admin schema. What the types cannot say (the mandatory `@idempotent` directive, `changeFromQuantity`
 * required though nullable, the token header, the token request's grants) are runtime rules (`rules.ts`),
 * applied beside this judge with `judgeWithRules`.
 */

import { type GraphQLError, Kind, type OperationDefinitionNode, parse, validate } from "graphql";
import { graphqlJudge } from "../../testing/graphql-judge";
import type { RequestJudge } from "../../testing/recorder";
import { SHOPIFY_API_VERSION } from "./derive-schema";
import { shopifyJudgeSchema } from "./schema";

/** The query string a `bulkOperationRunQuery` runs later is judged as well (it is a document of its own). */
export function bulkQueryProblems(op: OperationDefinitionNode, coerced: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const sel of op.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || sel.name.value !== "bulkOperationRunQuery") continue;
    const arg = sel.arguments?.find((a) => a.name.value === "query")?.value;
    const text =
      arg?.kind === Kind.VARIABLE
        ? coerced[arg.name.value]
        : arg?.kind === Kind.STRING
          ? arg.value
          : undefined;
    if (typeof text !== "string") continue;
    try {
      for (const e of validate(shopifyJudgeSchema(), parse(text))) problems.push(`bulk query: ${e.message}`);
    } catch (e) {
      problems.push(`bulk query: ${(e as GraphQLError).message}`);
    }
  }
  return problems;
}

/** Judges one request, with the query a `bulkOperationRunQuery` runs later. */
const shopifyGraphql = graphqlJudge(shopifyJudgeSchema, {
  anonymousName: () => "(anonymous)",
  more: bulkQueryProblems,
});
export const judgeShopifyRequest = shopifyGraphql.request;

const GRAPHQL_PATH = new RegExp(`/admin/api/${SHOPIFY_API_VERSION}/graphql\\.json$`);

/**
 * The judge over what the emulator's recorder kept: GraphQL calls of the pinned version (document and
 * variables), the OAuth code exchange, and downloads of bulk-operation results. Anything else is unknown.
 */
export const judgeShopifyRecorded: RequestJudge = (r) => {
  if (r.method === "POST" && GRAPHQL_PATH.test(r.path)) {
    return shopifyGraphql.body(r.body);
  }
  if (r.method === "POST" && r.path.endsWith("/admin/oauth/access_token")) {
    // Its body is judged by the runtime rule `shopify.token-request` (three grants, one endpoint).
    const grant = (r.body as { grant_type?: unknown } | undefined)?.grant_type;
    return { operation: `oauth/access_token ${typeof grant === "string" ? grant : "code"}`, problems: [] };
  }
  // Bulk results: the URL comes from BulkOperation.url (a signed GET, no Shopify token sent to it).
  if (r.method === "GET" && /\/bulk-results\/[\w-]+\.jsonl$/.test(r.path)) {
    const leaked = r.headers["x-shopify-access-token"] !== undefined;
    return {
      operation: "bulk result download",
      problems: leaked ? ["access token sent to the result URL"] : [],
    };
  }
  return undefined;
};
