// One esbuild bundle of a workspace entry and its @ep/* imports, npm packages left external (loaded
// from node_modules at run time), with the staleness check `--if-stale` starts rely on: the server's
// dist/main.js (apps/server/scripts/build.mjs) and the demo agent's dist/cli.mjs
// (apps/agent/scripts/build-bundle.mjs).
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : Number.POSITIVE_INFINITY);

/**
 * Why `outFile` must be built again, or undefined when it is up to date: missing, or older than a file
 * its last build read (listed in `metaFile`), the lock file, this file or the calling `script`.
 * A file gone (moved, deleted) counts as changed: its importer changed too, or the build would fail.
 */
export function staleness({ outFile, metaFile, script }) {
  if (!existsSync(outFile) || !existsSync(metaFile)) return "no build yet";
  const builtAt = statSync(outFile).mtimeMs;
  const meta = JSON.parse(readFileSync(metaFile, "utf8"));
  const inputs = [
    ...Object.keys(meta.inputs).map((input) => join(root, input)),
    join(root, "package-lock.json"),
    fileURLToPath(import.meta.url),
    script,
  ];
  const changed = inputs.find((input) => mtime(input) > builtAt);
  return changed ? `${changed.slice(root.length + 1)} changed` : undefined;
}

/**
 * Bundles `entry` into `outFile` and records what it read in `metaFile`; answers the bundle's size in
 * bytes. `keepModulePaths`: each module's `import.meta.url` stays its source file's, so paths resolved
 * against it (migrations, the web build, createRequire) are what they are from source.
 */
export async function bundleWorkspace({ entry, outFile, metaFile, keepModulePaths = false }) {
  const esbuild = await import("esbuild");
  const result = await esbuild.build({
    entryPoints: [entry],
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
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@ep/") ? undefined : { path: args.path, external: true },
          );
          if (keepModulePaths)
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
  return result.metafile.outputs[Object.keys(result.metafile.outputs)[0]].bytes;
}
