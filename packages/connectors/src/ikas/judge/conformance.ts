/**
 * Conformance: every GraphQL request the IKAS connector sends is checked against the schema derived
 * from IKAS's own package — the document (graphql-js `validate`) and the variables (coerced against the
 * operation's variable definitions, as a GraphQL server does before executing).
 */

import {
  type DocumentNode,
  type GraphQLError,
  type OperationDefinitionNode,
  parse,
  print,
  validate,
} from "graphql";
import { getVariableValues } from "graphql/execution/values";
import type { RequestJudge } from "../../testing/recorder";
import { ikasJudgeSchema } from "./schema";

export interface GqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface JudgedRequest {
  /** `query|mutation` and the operation's name, or its root fields when it has none. */
  operation: string;
  /** The document, normalised (so two texts of one operation count once). */
  document: string;
  errors: string[];
}

function pickOperation(doc: DocumentNode, name?: string | null): OperationDefinitionNode | undefined {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
  return name ? ops.find((o) => o.name?.value === name) : ops.length === 1 ? ops[0] : undefined;
}

/** Judge one request. An empty `errors` list means the real API would accept it as sent. */
export function judgeIkasRequest(req: GqlRequest): JudgedRequest {
  const schema = ikasJudgeSchema();
  let doc: DocumentNode;
  try {
    doc = parse(req.query);
  } catch (e) {
    return { operation: "unparsable", document: req.query, errors: [(e as GraphQLError).message] };
  }
  const op = pickOperation(doc, req.operationName);
  if (!op) return { operation: "unknown", document: print(doc), errors: ["no single operation to execute"] };
  const fields = op.selectionSet.selections
    .map((s) => (s.kind === "Field" ? s.name.value : ""))
    .filter(Boolean)
    .join("+");
  const operation = `${op.operation} ${op.name?.value ?? fields}`;
  const errors = validate(schema, doc).map((e) => e.message);
  if (errors.length === 0) {
    const coerced = getVariableValues(schema, op.variableDefinitions ?? [], req.variables ?? {});
    for (const e of coerced.errors ?? []) errors.push(e.message);
  }
  return { operation, document: print(doc), errors };
}

/**
 * The judge over requests the emulator's kit recorder kept: the token endpoint's form body, and every
 * GraphQL request's document and variables against the derived schema. Anything else is unknown to it.
 */
export const judgeIkasRecorded: RequestJudge = (r) => {
  if (r.method !== "POST") return undefined;
  if (r.path === "/api/admin/oauth/token") {
    const b = (r.body ?? {}) as Record<string, unknown>;
    const problems = ["client_id", "client_secret"]
      .filter((k) => typeof b[k] !== "string" || b[k] === "")
      .map((k) => `${k} is missing from the form body`);
    if (b.grant_type !== "client_credentials") problems.push("grant_type must be client_credentials");
    return { operation: "oauth/token", problems };
  }
  if (!/^\/api\/v[12]\/admin\/graphql$/.test(r.path)) return undefined;
  const b = r.body as Partial<GqlRequest> | undefined;
  if (typeof b?.query !== "string")
    return { operation: "graphql", problems: ["no query string in the body"] };
  const judged = judgeIkasRequest(b as GqlRequest);
  return { operation: judged.operation, problems: judged.errors };
};
