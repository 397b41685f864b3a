/**
 * The judge for D365 F&O: every request the connector sends in its contract tests is checked against the
 * OData v4 protocol (query options, `$filter`/`$select` syntax read with `@odata/parser`, the `$batch`
 * multipart format) and against the entity fixture derived from Microsoft's entity reference pages
 * (entities.generated.json): the entity set must be known, every property named in `$select`, `$filter`
 * or a body must be one of that entity's fields. The token request follows the Entra ID v2 client-credentials
 * grant. A request the judge does not know, or rejects, fails the suite.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import { filterFields, ODataSyntaxError, parseBatch, parseFilter, parseSystemOption } from "../odata";
import { D365_ENTITIES, isField } from "./entities";

/** Query options the connector may send: the OData system options and F&O's documented `cross-company`. */
const OPTIONS = new Set(["$filter", "$select", "$top", "$skip", "$skiptoken", "cross-company"]);

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const header = (r: RecordedRequest, name: string): string | undefined => {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

function bodyProblems(set: string, body: unknown, where: string): string[] {
  if (!isObj(body)) return [`${where}: body must be a JSON object`];
  const p: string[] = [];
  for (const [k, v] of Object.entries(body)) {
    if (!isField(set, k)) p.push(`${where}: ${set} has no property ${k}`);
    if (v !== null && typeof v === "object") p.push(`${where}: ${k} must be a primitive value`);
  }
  if (
    D365_ENTITIES.get(set)?.companySpecific &&
    (typeof body.dataAreaId !== "string" || body.dataAreaId === "")
  ) {
    p.push(`${where}: dataAreaId (company) missing`);
  }
  return p;
}

function tokenRequest(r: RecordedRequest): Verdict {
  const p: string[] = [];
  const b = r.body as Obj | undefined;
  if (!/^application\/x-www-form-urlencoded/i.test(header(r, "content-type") ?? "")) {
    p.push("token request must be form-encoded");
  }
  if (!isObj(b)) return { operation: "oauth2/v2.0/token", problems: [...p, "form body missing"] };
  if (b.grant_type !== "client_credentials") p.push("grant_type must be client_credentials");
  for (const k of ["client_id", "client_secret"])
    if (typeof b[k] !== "string" || b[k] === "") p.push(`${k} missing`);
  // v2 endpoint: the resource is named by scope "<resource>/.default" (no `resource` parameter).
  if (typeof b.scope !== "string" || !/^https?:\/\/[^ ]+\/\.default$/.test(b.scope)) {
    p.push("scope must be '<environment URL>/.default'");
  }
  if ("resource" in b) p.push("the v2 endpoint takes scope, not resource");
  return { operation: "oauth2/v2.0/token", problems: p };
}

function authProblems(r: RecordedRequest): string[] {
  return /^Bearer \S+$/.test(header(r, "authorization") ?? "")
    ? []
    : ["Authorization: Bearer <token> missing"];
}

function getEntities(r: RecordedRequest, set: string): Verdict {
  const operation = `GET ${set}`;
  const p = authProblems(r);
  for (const [k, v] of Object.entries(r.query)) {
    if (!OPTIONS.has(k)) p.push(`unknown query option ${k}`);
    if (typeof v !== "string") p.push(`query option ${k} given more than once`);
  }
  const q = r.query as Record<string, string>;
  if ("cross-company" in q && q["cross-company"] !== "true") p.push("cross-company takes 'true'");
  try {
    if (q.$filter !== undefined) {
      for (const f of filterFields(parseFilter(q.$filter))) {
        if (!isField(set, f)) p.push(`$filter: ${set} has no property ${f}`);
      }
    }
    if (q.$select !== undefined) {
      parseSystemOption("$select", q.$select);
      for (const f of q.$select.split(","))
        if (!isField(set, f)) p.push(`$select: ${set} has no property ${f}`);
    }
    for (const k of ["$top", "$skip"] as const) {
      if (q[k] !== undefined) {
        parseSystemOption(k, q[k]);
        if (!/^\d+$/.test(q[k])) p.push(`${k} must be a non-negative integer`);
      }
    }
  } catch (e) {
    if (e instanceof ODataSyntaxError) p.push(e.message);
    else throw e;
  }
  const prefer = header(r, "prefer");
  if (prefer !== undefined && !/^odata\.maxpagesize=\d+$/.test(prefer))
    p.push(`Prefer '${prefer}' is not odata.maxpagesize=N`);
  return { operation, problems: p };
}

function postEntity(r: RecordedRequest, set: string): Verdict {
  const p = authProblems(r);
  if (!/^application\/json/i.test(header(r, "content-type") ?? "")) p.push("body must be application/json");
  if (Object.keys(r.query).length > 0) p.push("a create takes no query options");
  return { operation: `POST ${set}`, problems: [...p, ...bodyProblems(set, r.body, "body")] };
}

function batch(r: RecordedRequest): Verdict {
  const p = authProblems(r);
  const parts = typeof r.body === "string" ? parseBatch(header(r, "content-type"), r.body) : undefined;
  if (!parts) return { operation: "$batch", problems: [...p, "body is not a multipart/mixed batch"] };
  if (parts.length === 0) p.push("empty batch");
  const sets = new Set<string>();
  const ids = new Set<string>();
  for (const [i, part] of parts.entries()) {
    const where = `part ${i + 1}`;
    if (!part.changeset) p.push(`${where}: writes must sit in a change set`);
    const id = part.mimeHeaders["content-id"];
    if (!id) p.push(`${where}: Content-ID missing (required in a change set)`);
    else if (ids.has(id)) p.push(`${where}: Content-ID ${id} repeated`);
    else ids.add(id);
    if (part.mimeHeaders["content-transfer-encoding"] !== "binary")
      p.push(`${where}: Content-Transfer-Encoding must be binary`);
    const m = /^(POST|PATCH|DELETE) (\S+) HTTP\/1\.1$/.exec(part.startLine);
    if (!m) {
      p.push(`${where}: bad request line '${part.startLine}'`);
      continue;
    }
    let path = m[2] as string;
    try {
      path = new URL(path, "http://relative.invalid").pathname;
    } catch {
      p.push(`${where}: bad URL`);
      continue;
    }
    const set = /\/data\/([A-Za-z0-9_]+)$/.exec(path)?.[1];
    if (!set || !D365_ENTITIES.has(set)) {
      p.push(`${where}: unknown entity set in ${path}`);
      continue;
    }
    sets.add(set);
    if (m[1] === "POST") {
      if (!/^application\/json/i.test(part.headers["content-type"] ?? ""))
        p.push(`${where}: Content-Type must be application/json`);
      let body: unknown;
      try {
        body = JSON.parse(part.body);
      } catch {
        p.push(`${where}: body is not JSON`);
        continue;
      }
      p.push(...bodyProblems(set, body, where));
    }
  }
  return { operation: `$batch ${[...sets].sort().join("+") || "?"}`, problems: p };
}

export const judgeD365Request: RequestJudge = (r) => {
  if (r.method === "POST" && /\/oauth2\/v2\.0\/token$/.test(r.path)) return tokenRequest(r);
  const m = /\/data\/(\$batch|[A-Za-z0-9_]+)$/.exec(r.path);
  if (!m) return undefined;
  const set = m[1] as string;
  if (set === "$batch") return r.method === "POST" ? batch(r) : undefined;
  if (!D365_ENTITIES.has(set))
    return { operation: `${r.method} ${set}`, problems: [`unknown entity set ${set}`] };
  if (r.method === "GET") return getEntities(r, set);
  if (r.method === "POST") return postEntity(r, set);
  return undefined;
};
