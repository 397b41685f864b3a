// Bundles the agent's CLI (src/cli.ts and the workspace packages it imports) into dist/cli.mjs for the
// demo's agent the server starts beside itself (and `ROLE=agent npm start`): plain node, as the
// server's own bundle (apps/server/scripts/build.mjs) and unlike tsx, which transpiles every module as
// it loads and keeps its source maps (issue 34: 123 MB of an idle `npm start` was this agent under
// tsx). npm packages stay external, loaded from node_modules only when the agent needs them (the SQL
// drivers on a first statement). Merchants run the single executable (scripts/build-exe.mjs) instead.
//
// `--if-stale`: builds only when dist/cli.mjs is missing or older than a file the last build read
// (dist/meta.json), the lock file or this script (scripts/workspace-bundle.mjs).
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleWorkspace, staleness } from "../../../scripts/workspace-bundle.mjs";

const script = fileURLToPath(import.meta.url);
const agentDir = resolve(dirname(script), "..");
const outFile = join(agentDir, "dist/cli.mjs");
const metaFile = join(agentDir, "dist/meta.json");

if (!process.argv.includes("--if-stale") || staleness({ outFile, metaFile, script }))
  await bundleWorkspace({ entry: join(agentDir, "src/cli.ts"), outFile, metaFile });
