// Builds the web app only when dist is missing or older than its sources (or the shared
// contracts it imports): `npm start` and the browser suite start in seconds when nothing changed.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const webDir = join(dirname(fileURLToPath(import.meta.url)), "..");
const root = join(webDir, "../..");
const distIndex = join(webDir, "dist/index.html");

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === "node_modules" || entry === "dist") continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

const sources = [
  join(webDir, "src"),
  join(webDir, "index.html"),
  join(webDir, "vite.config.ts"),
  join(webDir, "package.json"),
  join(webDir, "public"),
  join(root, "packages/contracts/src"),
];
const builtAt = existsSync(distIndex) ? statSync(distIndex).mtimeMs : 0;
// Nothing to say when the build is current; otherwise one line while it runs, and only Vite's warnings
// and errors (not its list of files): `npm start` prints the address, the sign-in and problems.
if (builtAt <= Math.max(...sources.map(newestMtime))) {
  const started = Date.now();
  console.log("web: building the panel (about a minute on a first start)…");
  // A production build whatever the caller's NODE_ENV (Vitest sets "test").
  const result = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], {
    cwd: webDir,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status === 0) console.log(`web: built in ${Math.round((Date.now() - started) / 1000)} s`);
  process.exit(result.status ?? 1);
}
