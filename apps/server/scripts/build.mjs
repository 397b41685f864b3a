// Bundles the server for `npm start` / `npm run worker`: src/main.ts and the workspace packages it
// imports (TypeScript) into dist/main.js with esbuild; npm packages stay external (node_modules).
// Why: under tsx every module is transpiled as it loads and Node keeps every source map tsx turns on
// (its source-map cache, node_modules' maps included): measured at 290 MB PSS for an idle worker,
// 196 MB with source maps off and 136 MB from this bundle (issue 13, item 4; bench/README.md).
// `npm run dev` and the tests still run the sources through tsx.
//
// `--if-stale`: builds only when dist/main.js is missing or older than one of the files the last
// build read (listed in dist/meta.json), the lock file or this script, so a start costs a few stat
// calls when nothing changed.
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bundleWorkspace, staleness } from "../../../scripts/workspace-bundle.mjs";

const script = fileURLToPath(import.meta.url);
const serverDir = resolve(dirname(script), "..");
const outFile = join(serverDir, "dist/main.js");
const metaFile = join(serverDir, "dist/meta.json");

async function build() {
  const started = Date.now();
  const bytes = await bundleWorkspace({
    entry: join(serverDir, "src/main.ts"),
    outFile,
    metaFile,
    keepModulePaths: true,
  });
  // `npm start` (--if-stale) stays quiet: a few seconds' build is nothing a person needs to read.
  if (!quiet)
    console.log(
      `server: bundled into dist/main.js (${Math.round(bytes / 1024)} kB) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
}

const quiet = process.argv.includes("--if-stale");
const why = quiet ? staleness({ outFile, metaFile, script }) : "asked";
if (why) await build();
