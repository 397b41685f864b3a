/**
 * The GraphQL half of the GraphQL shops' judges (IKAS, Shopify): a request is parsed, its operation
 * picked, the document validated against the system's schema (graphql-js `validate`) and its variables
 * coerced against the operation's variable definitions, as a GraphQL server does before executing.
 */

import {
  type DocumentNode,
  type GraphQLError,
  type GraphQLSchema,
  type OperationDefinitionNode,
  parse,
  print,
  validate,
} from "graphql";
import { getVariableValues } from "graphql/execution/values";
import type { Verdict } from "./recorder";

export interface GqlRequest {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

export interface JudgedRequest {
  /** `query|mutation` and the operation's name (or what the system's judge names an anonymous one). */
  operation: string;
  /** The document, normalised (so two texts of one operation count once). */
  document: string;
  errors: string[];
}

export interface GraphqlJudgeOptions {
  /** The name of an operation without one (e.g. its root fields). */
  anonymousName: (op: OperationDefinitionNode) => string;
  /** Further problems of a request whose document and variables are valid (e.g. a nested bulk query). */
  more?: (op: OperationDefinitionNode, coerced: Record<string, unknown>) => string[];
}

function pickOperation(doc: DocumentNode, name?: string | null): OperationDefinitionNode | undefined {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
  return name ? ops.find((o) => o.name?.value === name) : ops.length === 1 ? ops[0] : undefined;
}

/** Judge one request. An empty `errors` list means the real API would accept it as sent. */
export function judgeGraphqlRequest(
  schema: GraphQLSchema,
  req: GqlRequest,
  opts: GraphqlJudgeOptions,
): JudgedRequest {
  let doc: DocumentNode;
  try {
    doc = parse(req.query);
  } catch (e) {
    return { operation: "unparsable", document: req.query, errors: [(e as GraphQLError).message] };
  }
  const op = pickOperation(doc, req.operationName);
  if (!op) return { operation: "unknown", document: print(doc), errors: ["no single operation to execute"] };
  const operation = `${op.operation} ${op.name?.value ?? opts.anonymousName(op)}`;
  const errors = validate(schema, doc).map((e) => e.message);
  if (errors.length === 0) {
    const coerced = getVariableValues(schema, op.variableDefinitions ?? [], req.variables ?? {});
    for (const e of coerced.errors ?? []) errors.push(e.message);
    if (coerced.coerced && opts.more) errors.push(...opts.more(op, coerced.coerced));
  }
  return { operation, document: print(doc), errors };
}

/** A recorded GraphQL POST's body judged by `judge`; a body without a query string is refused. */
export function judgeGraphqlBody(body: unknown, judge: (req: GqlRequest) => JudgedRequest): Verdict {
  const b = body as Partial<GqlRequest> | undefined;
  if (typeof b?.query !== "string")
    return { operation: "graphql", problems: ["no query string in the body"] };
  const judged = judge(b as GqlRequest);
  return { operation: judged.operation, problems: judged.errors };
}

/** One system's GraphQL judge: `request` judges a request, `body` a recorded POST body. */
export function graphqlJudge(schema: () => GraphQLSchema, opts: GraphqlJudgeOptions) {
  const request = (req: GqlRequest): JudgedRequest => judgeGraphqlRequest(schema(), req, opts);
  return { request, body: (body: unknown): Verdict => judgeGraphqlBody(body, request) };
}
