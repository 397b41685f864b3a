/**
 * The judge for Trendyol e-Faturam: the request shapes in `requests.json` (JSON Schema we transcribed from
 * the public third-party material named there; no vendor artifact is public). A request is recognised by
 * method and path template; path parameters must match their pattern, every call but sign-in must carry
 * `x-access-token`, and a JSON body must validate against the operation's schema (unknown fields refused).
 * The emulator refuses what this judge refuses, and the contract test runs every recorded request through it.
 */

import Ajv, { type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import fixture from "./requests.json" with { type: "json" };

interface Operation {
  method: string;
  path: string;
  auth: boolean;
  params?: Record<string, string>;
  body?: object;
}

const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

const ROUTES = (fixture.operations as Operation[]).map((op) => {
  const names: string[] = [];
  const source = op.path.replace(/:(\w+)/g, (_m, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return {
    op,
    name: `${op.method} ${op.path}`,
    names,
    re: new RegExp(`^${source}$`),
    validate: op.body ? (ajv.compile(op.body) as ValidateFunction) : undefined,
  };
});

const describe = (errors: ErrorObject[] | null | undefined): string[] =>
  (errors ?? []).map(
    (e) =>
      `${e.instancePath || "(body)"} ${e.message ?? "invalid"}${e.params && "additionalProperty" in e.params ? `: ${String(e.params.additionalProperty)}` : ""}`,
  );

/** The operation a method and path name, if the judge knows it. */
export function trendyolOperation(method: string, path: string) {
  return ROUTES.find((r) => r.op.method === method && r.re.test(path));
}

export const judgeTrendyolEFaturamRequest: RequestJudge = (r: RecordedRequest): Verdict | undefined => {
  const route = trendyolOperation(r.method, r.path);
  if (!route) return undefined;
  const problems: string[] = [];
  const match = route.re.exec(r.path);
  route.names.forEach((name, i) => {
    const value = decodeURIComponent(match?.[i + 1] ?? "");
    const pattern = route.op.params?.[name];
    if (pattern && !new RegExp(pattern).test(value))
      problems.push(`path parameter ${name}=${value} does not match ${pattern}`);
  });
  if (route.op.auth) {
    const token = r.headers["x-access-token"];
    if (typeof token !== "string" || token.length === 0) problems.push("x-access-token header missing");
  }
  if (route.validate) {
    if (!route.validate(r.body)) problems.push(...describe(route.validate.errors));
  } else if (r.body !== undefined && r.body !== null && r.body !== "")
    problems.push(`${route.name} takes no body`);
  if (Object.keys(r.query).length > 0) problems.push(`${route.name} takes no query parameters`);
  return { operation: route.name, problems };
};

/** The problems of one JSON body for an operation (the emulator's 422 `ValidationProblem`). */
export function bodyProblems(method: string, path: string, body: unknown): string[] {
  const route = trendyolOperation(method, path);
  if (!route?.validate) return [];
  return route.validate(body) ? [] : describe(route.validate.errors);
}

/** Trendyol e-Faturam's status codes ("Fatura Statü Kodları") with their Turkish names. */
export const TRENDYOL_STATUS_NAMES = fixture.statusCodes as Record<string, string>;
export const TRENDYOL_HOSTS = fixture.hosts;
