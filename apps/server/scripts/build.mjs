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
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const serverDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const root = resolve(serverDir, "../..");
const outFile = join(serverDir, "dist/main.js");
const metaFile = join(serverDir, "dist/meta.json");

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : Number.POSITIVE_INFINITY);

function stale() {
  if (!existsSync(outFile) || !existsSync(metaFile)) return "no build yet";
  const builtAt = statSync(outFile).mtimeMs;
  const meta = JSON.parse(readFileSync(metaFile, "utf8"));
  const inputs = [
    ...Object.keys(meta.inputs).map((input) => join(root, input)),
    join(root, "package-lock.json"),
    fileURLToPath(import.meta.url),
  ];
  // A file gone (moved, deleted) counts as changed: its importer changed too, or the build would fail.
  const changed = inputs.find((input) => mtime(input) > builtAt);
  return changed ? `${changed.slice(root.length + 1)} changed` : undefined;
}

async function build() {
  const esbuild = await import("esbuild");
  const started = Date.now();
  const result = await esbuild.build({
    entryPoints: [join(serverDir, "src/main.ts")],
    absWorkingDir: root,
    outfile: outFile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Class and function names stay as written (logs, error names, pg-boss handlers).
    keepNames: true,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
    plugins: [
      {
        name: "workspace-only",
        setup(b) {
          // npm packages load from node_modules at run time, as under tsx; only @ep/* is bundled.
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@ep/") ? undefined : { path: args.path, external: true },
          );
          // Each module keeps its own location: paths resolved against import.meta.url (the
          // migrations, the web build, the agent's CLI, createRequire) stay what they are from source.
          b.onLoad({ filter: /\.ts$/ }, (args) => ({
            contents: readFileSync(args.path, "utf8").replaceAll(
              "import.meta.url",
              JSON.stringify(pathToFileURL(args.path).href),
            ),
            loader: "ts",
          }));
        },
      },
    ],
  });
  mkdirSync(dirname(metaFile), { recursive: true });
  writeFileSync(metaFile, JSON.stringify({ inputs: result.metafile.inputs }));
  const kb = Math.round(result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].bytes / 1024);
  // `npm start` (--if-stale) stays quiet: a few seconds' build is nothing a person needs to read.
  if (!quiet)
    console.log(
      `server: bundled into dist/main.js (${kb} kB) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
}

const quiet = process.argv.includes("--if-stale");
const why = quiet ? stale() : "asked";
if (why) await build();
