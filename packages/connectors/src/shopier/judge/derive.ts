/**
 * Derives the Shopier request fixture from the unofficial typed SDK `@bbangg/shopier@1.0.7` (a
 * devDependency): GET paths from `dist/index.js` (`http.get` / `http.getPaginated` calls), query parameters
 * of each list from the `List…Params` interfaces in `dist/index.d.ts` (with `PaginationParams`), the sort
 * values (`SortOrder`), the bearer header and the base URL. `npm run derive:shopier -w @ep/connectors`
 * writes shopier-api.generated.json; judge.test.ts derives again and compares.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export interface ShopierApiFixture {
  package: string;
  version: string;
  baseUrl: string;
  /** GET paths (`:id` for a template part) → the query parameters its list method takes. */
  gets: Record<string, string[]>;
  sortValues: string[];
  webhookSignatureHeader: string;
}

/** Members of an interface (and what it extends), by name. */
function members(dts: string, name: string): string[] {
  const m = new RegExp(`interface ${name}(?: extends ([\\w, ]+))? \\{([^}]*)\\}`).exec(dts);
  if (!m) return [];
  const own = [...(m[2] ?? "").matchAll(/^\s+(\w+)\??:/gm)].map((x) => x[1] as string);
  const parents = (m[1] ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return [...parents.flatMap((p) => members(dts, p)), ...own];
}

export function deriveShopierApi(): ShopierApiFixture {
  const require = createRequire(import.meta.url);
  const root = dirname(dirname(require.resolve("@bbangg/shopier")));
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
    name: string;
    version: string;
  };
  const js = readFileSync(join(root, "dist/index.js"), "utf8");
  const dts = readFileSync(join(root, "dist/index.d.ts"), "utf8");
  const gets: Record<string, string[]> = {};
  // Each resource class: `async list(params) { return this.http.getPaginated("/x", params); }`.
  for (const m of js.matchAll(/this\.http\.(get|getPaginated)\(\s*(["`])([^"`]+)\2/g)) {
    const path = (m[3] as string).replace(/\$\{[^}]+\}/g, ":id");
    gets[path] ??= [];
  }
  // List parameters: the d.ts names `list(params?: ListXParams)` per resource; map by the resource's path.
  const classes = [...dts.matchAll(/declare class (\w+)Resource \{([\s\S]*?)\n\}/g)];
  for (const c of classes) {
    const list = /list\(params\?: (\w+)\)/.exec(c[2] as string)?.[1];
    if (!list) continue;
    const body = new RegExp(`var ${c[1]}Resource = class \\{([\\s\\S]*?)\\n\\};`).exec(js)?.[1] ?? "";
    const path = /async list\([^)]*\) \{\s*return this\.http\.getPaginated\("([^"]+)"/.exec(body)?.[1];
    if (path) gets[path] = members(dts, list);
  }
  const sortValues = [...(/type SortOrder = ([^;]+);/.exec(dts)?.[1] ?? "").matchAll(/'(\w+)'/g)].map(
    (x) => x[1] as string,
  );
  const baseUrl = /options\.baseUrl\?\.replace\([^)]*\) \|\| "([^"]+)"/.exec(js)?.[1] ?? "";
  const webhookSignatureHeader = /signature from the '([\w-]+)' header/.exec(dts)?.[1] ?? "";
  return { package: pkg.name, version: pkg.version, baseUrl, gets, sortValues, webhookSignatureHeader };
}

if (process.argv[1]?.endsWith("derive.ts")) {
  writeFileSync(
    join(import.meta.dirname, "shopier-api.generated.json"),
    `${JSON.stringify(deriveShopierApi(), null, 1)}\n`,
  );
}
