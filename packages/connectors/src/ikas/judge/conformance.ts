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
 * Records the GraphQL requests that pass through a `fetch` (the connector context's hook), judging each.
 * Token requests go through unjudged.
 */
export class IkasRequestRecorder {
  readonly judged: JudgedRequest[] = [];

  readonly fetch: typeof fetch = async (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (new URL(url).pathname.endsWith("/admin/graphql") && typeof init?.body === "string") {
      this.judged.push(judgeIkasRequest(JSON.parse(init.body) as GqlRequest));
    }
    return fetch(input, init);
  };

  /**
   * Distinct operations and documents seen; the rejected ones (keyed by operation) with the errors of
   * their first rejected request.
   */
  summary(): {
    operations: string[];
    documents: number;
    rejectedDocuments: number;
    rejected: Map<string, string[]>;
  } {
    const operations = [...new Set(this.judged.map((j) => j.operation))].sort();
    const documents = new Set(this.judged.map((j) => j.document)).size;
    const rejectedDocs = new Set<string>();
    const rejected = new Map<string, string[]>();
    for (const j of this.judged) {
      if (j.errors.length === 0) continue;
      rejectedDocs.add(j.document);
      if (!rejected.has(j.operation)) rejected.set(j.operation, j.errors);
    }
    return { operations, documents, rejectedDocuments: rejectedDocs.size, rejected };
  }
}
