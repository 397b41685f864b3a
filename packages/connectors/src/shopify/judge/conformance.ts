/**
 * Conformance: every request the Shopify connector sends is checked against Shopify's own artifact — the
 * GraphQL document (graphql-js `validate`) and its variables (coerced as a GraphQL server does) against the
 * pinned Admin schema. What the types cannot say (the mandatory `@idempotent` directive, `changeFromQuantity`
 * required though nullable, the token header, the token request's grants) are runtime rules (`rules.ts`),
 * applied beside this judge with `judgeWithRules`.
 */

import {
  type DocumentNode,
  type GraphQLError,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  validate,
} from "graphql";
import { getVariableValues } from "graphql/execution/values";
import type { RequestJudge } from "../../testing/recorder";
import { SHOPIFY_API_VERSION } from "./derive-schema";
import { shopifyJudgeSchema } from "./schema";

export interface GqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface JudgedRequest {
  operation: string;
  document: string;
  errors: string[];
}

function pickOperation(doc: DocumentNode, name?: string | null): OperationDefinitionNode | undefined {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
  return name ? ops.find((o) => o.name?.value === name) : ops.length === 1 ? ops[0] : undefined;
}

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

/** Judge one request. An empty `errors` list means the real API would accept it as sent. */
export function judgeShopifyRequest(req: GqlRequest): JudgedRequest {
  const schema = shopifyJudgeSchema();
  let doc: DocumentNode;
  try {
    doc = parse(req.query);
  } catch (e) {
    return { operation: "unparsable", document: req.query, errors: [(e as GraphQLError).message] };
  }
  const op = pickOperation(doc, req.operationName);
  if (!op) return { operation: "unknown", document: print(doc), errors: ["no single operation to execute"] };
  const operation = `${op.operation} ${op.name?.value ?? "(anonymous)"}`;
  const errors = validate(schema, doc).map((e) => e.message);
  if (errors.length === 0) {
    const coerced = getVariableValues(schema, op.variableDefinitions ?? [], req.variables ?? {});
    for (const e of coerced.errors ?? []) errors.push(e.message);
    if (coerced.coerced) errors.push(...bulkQueryProblems(op, coerced.coerced));
  }
  return { operation, document: print(doc), errors };
}

const GRAPHQL_PATH = new RegExp(`/admin/api/${SHOPIFY_API_VERSION}/graphql\\.json$`);

/**
 * The judge over what the emulator's recorder kept: GraphQL calls of the pinned version (document and
 * variables), the OAuth code exchange, and downloads of bulk-operation results. Anything else is unknown.
 */
export const judgeShopifyRecorded: RequestJudge = (r) => {
  if (r.method === "POST" && GRAPHQL_PATH.test(r.path)) {
    const b = r.body as Partial<GqlRequest> | undefined;
    if (typeof b?.query !== "string")
      return { operation: "graphql", problems: ["no query string in the body"] };
    const judged = judgeShopifyRequest(b as GqlRequest);
    return { operation: judged.operation, problems: judged.errors };
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
