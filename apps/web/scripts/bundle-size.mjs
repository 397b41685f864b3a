// Compressed size of the JavaScript and CSS a browser loads for the sign-in page and for the first
// signed-in page (the dashboard, its sales chart included), from dist/.vite/manifest.json
// (run `npm run build` first). Gzip is the goal's measure; brotli is what the server sends browsers
// that accept it. `--strict` exits non-zero when a goal is missed. This is the static view (the
// import graph); `npm run bench:bundle -w @ep/bench` measures the same first views in Chromium,
// counting whatever a first render requests lazily too.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const GOALS_KB = { signIn: 200, signedIn: 350 };

const dist = new URL("../dist/", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));

/** Every chunk a set of chunks loads statically (dynamic imports are not followed). */
function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}
/** The JS and CSS files of a set of chunks. */
const filesOf = (keys) => {
  const files = new Set();
  for (const key of keys) {
    const chunk = manifest[key];
    if (!chunk) continue;
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
  }
  return files;
};
const sizes = new Map();
function sizeOf(file) {
  if (!sizes.has(file)) {
    const raw = readFileSync(join(dist, file));
    sizes.set(file, {
      raw: raw.length,
      gzip: gzipSync(raw, { level: 9 }).length,
      br: brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
    });
  }
  return sizes.get(file);
}
const total = (files, kind) => [...files].reduce((sum, f) => sum + sizeOf(f)[kind], 0);
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const find = (suffix) => {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix}`);
  return key;
};

const signIn = filesOf(closure([entry, find("features/auth/routes.tsx")]));
const captcha = filesOf(
  closure([find("node_modules/altcha/dist/main/altcha.js"), find("altcha/dist/i18n/tr.js")]),
);
const signedIn = filesOf(
  closure([
    entry,
    find("app/PrivateRoutes.tsx"),
    find("features/dashboard/DashboardPage.tsx"),
    // The dashboard always shows the sales chart: it is part of the first signed-in view.
    find("features/dashboard/components/SalesAreaChart.tsx"),
  ]),
);
const entryOnly = filesOf(closure([entry]));

const line = (label, files) => {
  const js = [...files].filter((f) => f.endsWith(".js"));
  const css = [...files].filter((f) => f.endsWith(".css"));
  return `${label.padEnd(38)} ${kb(total(files, "gzip")).padStart(9)} gzip  ${kb(total(files, "br")).padStart(9)} br  (JS ${kb(total(js, "gzip"))}, CSS ${kb(total(css, "gzip"))} gzip; ${kb(total(files, "raw"))} raw)`;
};

console.log(line("entry chunk (+ its imports)", entryOnly));
console.log(line("sign-in page (JS + CSS)", signIn));
console.log(
  line("  + captcha widget (once on the form)", new Set([...captcha].filter((f) => !signIn.has(f)))),
);
console.log(line("signed-in first load (dashboard+chart)", signedIn));

let failed = false;
for (const [label, files, goal] of [
  ["sign-in", signIn, GOALS_KB.signIn],
  ["signed-in first load", signedIn, GOALS_KB.signedIn],
]) {
  const size = total(files, "gzip") / 1024;
  const pass = size <= goal;
  failed ||= !pass;
  console.log(`${pass ? "PASS" : "FAIL"} ${label}: ${size.toFixed(1)} kB gzip (goal ≤ ${goal} kB)`);
}
if (failed && process.argv.includes("--strict")) process.exit(1);
