/** The judge for IKAS: the Admin GraphQL schema derived from IKAS's own package, checked in as SDL. */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, type GraphQLSchema } from "graphql";

export const IKAS_SDL_PATH = fileURLToPath(new URL("./ikas-admin.generated.graphql", import.meta.url));

let cached: GraphQLSchema | undefined;

/** The derived schema (built once per process). */
export function ikasJudgeSchema(): GraphQLSchema {
  cached ??= buildSchema(readFileSync(IKAS_SDL_PATH, "utf8"));
  return cached;
}
