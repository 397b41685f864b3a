/**
 * The tail the REST judges of the marketplaces (Trendyol, Hepsiburada and the ones modelled on them)
 * share once a recorded request has been matched to a documented operation: Basic Auth with a user and
 * a secret, the required and known query parameters, and the operation's body check.
 */

import type { RecordedRequest, Verdict } from "./recorder";

/** A query parameter's check: a problem ("must be …") or undefined. */
export type QueryCheck = (v: unknown) => string | undefined;

type Row = Record<string, unknown>;

/** A whole number in `min..max` (a negative one only where `min` allows it). */
export const intParam =
  (min = 0, max = Number.MAX_SAFE_INTEGER): QueryCheck =>
  (v) => {
    const n = typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : Number.NaN;
    return Number.isInteger(n) && n >= min && n <= max ? undefined : `must be an integer ${min}..${max}`;
  };
export const strParam: QueryCheck = (v) =>
  typeof v === "string" && v.length > 0 ? undefined : "must be a non-empty string";
export const boolParam: QueryCheck = (v) =>
  v === "true" || v === "false" ? undefined : "must be true or false";
export const oneOfParam =
  (...values: string[]): QueryCheck =>
  (v) =>
    typeof v === "string" && values.includes(v) ? undefined : `must be one of ${values.join(", ")}`;
/** A comma-separated list of numeric package ids. */
export const idsParam: QueryCheck = (v) =>
  typeof v === "string" && /^\d+(,\d+)*$/.test(v) ? undefined : "must be package ids";

export const isRow = (v: unknown): v is Row => !!v && typeof v === "object" && !Array.isArray(v);
export const isFiniteNumber = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);

/** Fields of a body object outside `allowed`, and `required` ones missing (`at` prefixes the path). */
export function bodyFields(o: Row, allowed: string[], required: string[], at: string): string[] {
  const p: string[] = [];
  for (const k of Object.keys(o))
    if (!allowed.includes(k)) p.push(`${at}${k} is not a field of this request`);
  for (const k of required) if (o[k] === undefined || o[k] === null) p.push(`${at}${k} required`);
  return p;
}

export interface RestOperationShape {
  operation: string;
  query: Record<string, QueryCheck>;
  required?: string[];
  body?: (b: unknown) => string[];
}

/**
 * The verdict on `r` against the operation it matched; `authProblem` names what Basic Auth must carry
 * (left out for a marketplace whose own headers are a runtime rule, as n11's appkey/appsecret).
 */
export function judgeRestCall(op: RestOperationShape, r: RecordedRequest, authProblem?: string): Verdict {
  const p: string[] = [];
  if (authProblem !== undefined) {
    const auth = /^Basic\s+(.+)$/i.exec(String(r.headers.authorization ?? ""));
    const pair = auth ? Buffer.from(auth[1] ?? "", "base64").toString("utf8") : "";
    if (!/^[^:]+:.+$/.test(pair)) p.push(authProblem);
  }
  for (const k of op.required ?? []) if (r.query[k] === undefined) p.push(`${k} required`);
  for (const [k, v] of Object.entries(r.query ?? {})) {
    const check = op.query[k];
    if (!check) p.push(`${k} is not a parameter of ${op.operation}`);
    else {
      const problem = check(v);
      if (problem) p.push(`${k} ${problem}`);
    }
  }
  if (op.body) p.push(...op.body(r.body));
  return { operation: op.operation, problems: p };
}
