/**
 * The tail the REST judges of the marketplaces (Trendyol, Hepsiburada and the ones modelled on them)
 * share once a recorded request has been matched to a documented operation: Basic Auth with a user and
 * a secret, the required and known query parameters, and the operation's body check.
 */

import type { RecordedRequest, Verdict } from "./recorder";

/** A query parameter's check: a problem ("must be …") or undefined. */
export type QueryCheck = (v: unknown) => string | undefined;

export interface RestOperationShape {
  operation: string;
  query: Record<string, QueryCheck>;
  required?: string[];
  body?: (b: unknown) => string[];
}

/** The verdict on `r` against the operation it matched; `authProblem` names what Basic Auth must carry. */
export function judgeRestCall(op: RestOperationShape, r: RecordedRequest, authProblem: string): Verdict {
  const p: string[] = [];
  const auth = /^Basic\s+(.+)$/i.exec(String(r.headers.authorization ?? ""));
  const pair = auth ? Buffer.from(auth[1] ?? "", "base64").toString("utf8") : "";
  if (!/^[^:]+:.+$/.test(pair)) p.push(authProblem);
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
