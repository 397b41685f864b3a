/** The judge for Shopify: the pinned Admin GraphQL schema from Shopify's own introspection, as SDL. */

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildSchema, type GraphQLSchema } from "graphql";
import { SHOPIFY_API_VERSION } from "./derive-schema";

export const SHOPIFY_SDL_PATH = fileURLToPath(
  new URL(`./shopify-admin-${SHOPIFY_API_VERSION}.generated.graphql`, import.meta.url),
);

let cached: GraphQLSchema | undefined;

/** The pinned schema (built once per process; the emulator executes against it too). */
export function shopifyJudgeSchema(): GraphQLSchema {
  cached ??= buildSchema(readFileSync(SHOPIFY_SDL_PATH, "utf8"), { assumeValidSDL: true, noLocation: true });
  return cached;
}
