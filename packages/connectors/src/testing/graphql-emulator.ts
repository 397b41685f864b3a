/**
 * What the GraphQL emulators (IKAS, Shopify) share: a request's query parsed as a server does, and the
 * call it is counted as. Only `graphql` itself: the emulators run in the server's sandbox, so nothing of
 * the judges is pulled in here.
 */

import { type DocumentNode, type OperationDefinitionNode, parse } from "graphql";
import type { CallKind } from "../sdk/logging";

/** How an emulator counts a GraphQL call: its first operation, named by its first root field. */
export function graphqlCallOf(doc: DocumentNode): {
  op: OperationDefinitionNode | undefined;
  operation: string;
  kind: CallKind;
} {
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
  const firstField = op?.selectionSet.selections.find((s) => s.kind === "Field");
  const operation = firstField && firstField.kind === "Field" ? firstField.name.value : "unknown";
  return { op, operation, kind: op?.operation === "mutation" ? "write" : "read" };
}

/** A request's query parsed, or the error a GraphQL server answers (`missing` when there is no query). */
export function parseGraphqlQuery(query: unknown, missing: string): DocumentNode | Error {
  if (typeof query !== "string") return new Error(missing);
  try {
    return parse(query);
  } catch (e) {
    return e as Error;
  }
}
