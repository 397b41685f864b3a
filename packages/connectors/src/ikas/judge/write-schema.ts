/** Writes the derived IKAS schema next to this file: `npm run derive:ikas -w @ep/connectors`. */

import { readFileSync, writeFileSync } from "node:fs";
import { deriveIkasSchema, ikasTypingsPath } from "./derive-schema";
import { IKAS_SDL_PATH } from "./schema";

const typings = ikasTypingsPath();
const derived = deriveIkasSchema(readFileSync(typings, "utf8"), typings);
writeFileSync(IKAS_SDL_PATH, derived.sdl);
console.log(
  `${IKAS_SDL_PATH}: ${derived.queries} queries, ${derived.mutations} mutations, ${derived.types} types, ` +
    `${derived.inputs} inputs, ${derived.enums} enums, scalars ${derived.scalars.join(", ")}`,
);
