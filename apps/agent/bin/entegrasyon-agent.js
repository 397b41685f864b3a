#!/usr/bin/env node
// Runs the TypeScript sources through tsx (a dependency of the monorepo root).
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
