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
if (builtAt > Math.max(...sources.map(newestMtime))) {
  console.log("web: the build is newer than its sources, not rebuilt");
} else {
  // A production build whatever the caller's NODE_ENV (Vitest sets "test").
  const result = spawnSync("npx", ["vite", "build"], {
    cwd: webDir,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  process.exit(result.status ?? 1);
}
