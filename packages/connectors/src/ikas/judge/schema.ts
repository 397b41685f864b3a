/** The judge for IKAS: the Admin GraphQL schema derived from IKAS's own package, checked in as SDL. */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  buildSchema,
  GraphQLError,
  GraphQLScalarType,
  type GraphQLSchema,
  Kind,
  type ValueNode,
} from "graphql";

export const IKAS_SDL_PATH = fileURLToPath(new URL("./ikas-admin.generated.graphql", import.meta.url));

let cached: GraphQLSchema | undefined;

/**
 * The typings say only `Timestamp: any`; the API documentation and every client we know send Unix
 * milliseconds. So a Timestamp must be a finite number (inferred, see ikas/VERIFIED.md).
 */
function strictTimestamp(schema: GraphQLSchema): void {
  const t = schema.getType("Timestamp");
  if (!(t instanceof GraphQLScalarType)) throw new Error("derived schema has no Timestamp scalar");
  const parse = (v: unknown) => {
    if (typeof v !== "number" || !Number.isFinite(v)) {
      throw new GraphQLError(`Timestamp must be Unix milliseconds (a number), got ${JSON.stringify(v)}`);
    }
    return v;
  };
  Object.assign(t, {
    parseValue: parse,
    parseLiteral: (node: ValueNode) => {
      if (node.kind !== Kind.INT && node.kind !== Kind.FLOAT) {
        throw new GraphQLError("Timestamp must be Unix milliseconds (a number)", { nodes: node });
      }
      return Number(node.value);
    },
  });
}

/** The derived schema (built once per process). */
export function ikasJudgeSchema(): GraphQLSchema {
  if (!cached) {
    // Without source locations: 17,000 tokens and their texts a server would keep for nothing.
    cached = buildSchema(readFileSync(IKAS_SDL_PATH, "utf8"), { noLocation: true });
    strictTimestamp(cached);
  }
  return cached;
}
