// Gzip size of the JS a browser loads for the sign-in page and for the first signed-in page,
// from dist/.vite/manifest.json (run `npm run build` first).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const dist = new URL("../dist/", import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));

function closure(keys, seen = new Set()) {
  for (const key of keys) {
    if (seen.has(key)) continue;
    seen.add(key);
    closure(manifest[key]?.imports ?? [], seen);
  }
  return seen;
}
const gz = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const total = (keys) => [...keys].reduce((sum, key) => sum + gz(manifest[key].file), 0);
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
const find = (suffix) => {
  const key = Object.keys(manifest).find((k) => k.endsWith(suffix));
  if (!key) throw new Error(`no chunk for ${suffix}`);
  return key;
};

const signIn = closure([entry, find("features/auth/routes.tsx")]);
const captcha = closure([find("node_modules/altcha/dist/main/altcha.js"), find("altcha/dist/i18n/tr.js")]);
const signedIn = closure([
  entry,
  find("app/PrivateRoutes.tsx"),
  find("features/dashboard/DashboardPage.tsx"),
]);
const entryOnly = closure([entry]);

console.log(`entry chunk (+ its imports):       ${kb(total(entryOnly))}`);
console.log(`sign-in page JS:                   ${kb(total(signIn))}`);
console.log(
  `  + captcha widget (loaded after): ${kb(total(new Set([...captcha].filter((k) => !signIn.has(k)))))}`,
);
console.log(`signed-in first load (dashboard):  ${kb(total(signedIn))}`);
