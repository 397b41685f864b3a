// Bundles the agent's CLI (src/cli.ts and the workspace packages it imports) into dist/cli.mjs for the
// demo's agent the server starts beside itself (and `ROLE=agent npm start`): plain node, as the
// server's own bundle (apps/server/scripts/build.mjs) and unlike tsx, which transpiles every module as
// it loads and keeps its source maps (issue 34: 123 MB of an idle `npm start` was this agent under
// tsx). npm packages stay external, loaded from node_modules only when the agent needs them (the SQL
// drivers on a first statement). Merchants run the single executable (scripts/build-exe.mjs) instead.
//
// `--if-stale`: builds only when dist/cli.mjs is missing or older than a file the last build read
// (dist/meta.json), the lock file or this script.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const agentDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(agentDir, "../..");
const outFile = join(agentDir, "dist/cli.mjs");
const metaFile = join(agentDir, "dist/meta.json");

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : Number.POSITIVE_INFINITY);

function stale() {
  if (!existsSync(outFile) || !existsSync(metaFile)) return true;
  const builtAt = statSync(outFile).mtimeMs;
  const meta = JSON.parse(readFileSync(metaFile, "utf8"));
  const inputs = [
    ...Object.keys(meta.inputs).map((input) => join(root, input)),
    join(root, "package-lock.json"),
    fileURLToPath(import.meta.url),
  ];
  return inputs.some((input) => mtime(input) > builtAt);
}

if (!process.argv.includes("--if-stale") || stale()) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [join(agentDir, "src/cli.ts")],
    absWorkingDir: root,
    outfile: outFile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    keepNames: true,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
    plugins: [
      {
        name: "workspace-only",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@ep/") ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  mkdirSync(dirname(metaFile), { recursive: true });
  writeFileSync(metaFile, JSON.stringify({ inputs: result.metafile.inputs }));
}
