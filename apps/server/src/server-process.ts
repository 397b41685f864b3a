/**
 * The production server as `npm start` / `npm run worker` run it: the bundle (built when stale by
 * scripts/build.mjs) with the node flags of the package.json script, read from there so the benches, the
 * process-level tests and the browser suite start what an install runs.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const serverDir = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Node arguments (flags, then the bundle, relative to `serverDir`) of the server's `start` or `worker` script. */
export function serverNodeArgs(script: "start" | "worker"): string[] {
  const scripts = JSON.parse(readFileSync(join(serverDir, "package.json"), "utf8")).scripts;
  const run = /\bnode ((?:--\S+ )*)(dist\/main\.js)/.exec(scripts[script] ?? "");
  if (!run) throw new Error(`apps/server's "${script}" script does not run dist/main.js`);
  const build = spawnSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
    cwd: serverDir,
    encoding: "utf8",
  });
  if (build.status !== 0) throw new Error(`the server's bundle did not build:\n${build.stderr}`);
  return [...(run[1] ?? "").split(" ").filter(Boolean), run[2]!];
}
