/**
 * Resolvers of the IKAS emulator, one module per resource. They run against the schema derived from
 * `@ikas/api-client` (../judge), so types, enums and nullability are IKAS's own: the emulator refuses
 * what the real API refuses. Behaviour the package does not describe is listed in ../VERIFIED.md.
 */

import type { GraphQLSchema } from "graphql";
import { ikasJudgeSchema } from "../judge/schema";
import { catalogResolvers } from "./resolvers/catalog";
import type { IkasResolverContext, Resolvers } from "./resolvers/common";
import { inventoryResolvers } from "./resolvers/inventory";
import { orderResolvers } from "./resolvers/orders";
import { storeResolvers } from "./resolvers/store";
import { webhookResolvers } from "./resolvers/webhooks";

export type { IkasCallStats, IkasLimits, IkasResolverContext } from "./resolvers/common";
export { validationError } from "./resolvers/common";
export type { IkasAddress } from "./types";

export function createRoot(ctx: IkasResolverContext): Resolvers {
  return {
    ...storeResolvers(ctx),
    ...catalogResolvers(ctx),
    ...inventoryResolvers(ctx),
    ...orderResolvers(ctx),
    ...webhookResolvers(ctx),
  };
}

/** The emulator executes against the judge itself. */
export function ikasSchema(): GraphQLSchema {
  return ikasJudgeSchema();
}
