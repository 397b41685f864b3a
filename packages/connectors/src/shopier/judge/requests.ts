/**
 * The judge for Shopier: the requests `@bbangg/shopier@1.0.7` can send (fixture derived from the package,
 * shopier-api.generated.json): a GET path the SDK calls, only the query parameters of that list's
 * `List…Params` type, integer `page`/`limit`, `sort` among `SortOrder`, and `Authorization: Bearer <PAT>`.
 * A request the package never sends is unknown and fails the suite.
 */

import type { RecordedRequest, RequestJudge } from "../../testing/recorder";
import { isShopierTokenRequest } from "./rules";
import fixture from "./shopier-api.generated.json" with { type: "json" };

const ROUTES = Object.entries(fixture.gets as Record<string, string[]>).map(([path, params]) => ({
  path,
  params: new Set(params),
  re: new RegExp(`^/v1${path.replace(/:id/g, "[^/]+")}$`),
}));

export const judgeShopierRequest: RequestJudge = (r: RecordedRequest) => {
  // The OAuth token request (not in the TS SDK; shopier-go): its form is judged by the runtime rules.
  if (isShopierTokenRequest(r)) return { operation: "POST /oauth2/token", problems: [] };
  if (r.method !== "GET") return undefined;
  const route = ROUTES.find((x) => x.re.test(r.path));
  if (!route) return undefined;
  const p: string[] = [];
  const auth = r.headers.authorization;
  if (typeof auth !== "string" || !/^Bearer \S+$/.test(auth))
    p.push("Authorization: Bearer <personal access token> missing");
  for (const [k, v] of Object.entries(r.query)) {
    if (!route.params.has(k)) p.push(`${route.path} takes no query parameter ${k}`);
    if ((k === "page" || k === "limit") && !/^[1-9]\d*$/.test(String(v)))
      p.push(`${k} must be a positive integer`);
    if (k === "sort" && !fixture.sortValues.includes(String(v)))
      p.push(`sort must be one of ${fixture.sortValues.join(", ")}`);
  }
  return { operation: `GET ${route.path}`, problems: p };
};
