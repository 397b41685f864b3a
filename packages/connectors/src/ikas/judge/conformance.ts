/**
 * Conformance: every GraphQL request the IKAS connector sends is checked against the schema derived
 * from IKAS's own package — the document (graphql-js `validate`) and the variables (coerced against the
 * operation's variable definitions, as a GraphQL server does before executing).
 */

import { graphqlJudge } from "../../testing/graphql-judge";
import type { RequestJudge } from "../../testing/recorder";
import { ikasJudgeSchema } from "./schema";

/** Judges one request; an anonymous operation is named by its root fields. */
const ikasGraphql = graphqlJudge(ikasJudgeSchema, {
  anonymousName: (op) =>
    op.selectionSet.selections
      .map((s) => (s.kind === "Field" ? s.name.value : ""))
      .filter(Boolean)
      .join("+"),
});
export const judgeIkasRequest = ikasGraphql.request;

/**
 * The judge over requests the emulator's kit recorder kept: the token endpoint's form body, and every
 * GraphQL request's document and variables against the derived schema. Anything else is unknown to it.
 */
export const judgeIkasRecorded: RequestJudge = (r) => {
  if (r.method !== "POST") return undefined;
  if (r.path === "/api/admin/oauth/token") {
    const b = (r.body ?? {}) as Record<string, unknown>;
    const problems = ["client_id", "client_secret"]
      .filter((k) => typeof b[k] !== "string" || b[k] === "")
      .map((k) => `${k} is missing from the form body`);
    if (b.grant_type !== "client_credentials") problems.push("grant_type must be client_credentials");
    return { operation: "oauth/token", problems };
  }
  if (!/^\/api\/v[12]\/admin\/graphql$/.test(r.path)) return undefined;
  return ikasGraphql.body(r.body);
};
