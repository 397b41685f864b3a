/** Writes the derived Shopify judge next to this file: `npm run derive:shopify -w @ep/connectors`. */

import { writeFileSync } from "node:fs";
import { deriveShopifySchema, packDevMcp } from "./derive-schema";
import { SHOPIFY_SDL_PATH } from "./schema";

const derived = deriveShopifySchema(packDevMcp());
writeFileSync(SHOPIFY_SDL_PATH, derived.sdl);
console.log(
  `${SHOPIFY_SDL_PATH}: Admin API ${derived.version}, ${derived.queries} queries, ${derived.mutations} mutations, ` +
    `${derived.types} types, ${(derived.sdl.length / 1e6).toFixed(2)} MB`,
);
