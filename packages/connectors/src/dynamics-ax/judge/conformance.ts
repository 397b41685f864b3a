/**
 * Conformance: every request the connector sent in a test, judged by the WSDL and XSDs. A POST must carry
 * the SOAPAction of a WSDL operation, a text/xml body whose Body element is that operation's request
 * wrapper, a CallContext header naming a company, and the whole envelope must validate (xmllint). Nothing
 * else (no GET: the connector never downloads a WSDL, it is built from the judge's own) is known.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import { type AxOperation, axOperations, validateAxEnvelope } from "./artifact";

const header = (r: RecordedRequest, name: string): string => {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(",") : (v ?? "");
};

const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export function axJudge(operations: Map<string, AxOperation>): RequestJudge {
  return (r: RecordedRequest): Verdict | undefined => {
    if (r.method !== "POST") return undefined;
    const action = header(r, "soapaction").replaceAll('"', "");
    const op = operations.get(action);
    if (!op)
      return { operation: action || "POST (no SOAPAction)", problems: ["not an operation of the WSDL"] };
    const problems: string[] = [];
    if (!/^text\/xml\b/.test(header(r, "content-type")))
      problems.push("SOAP 1.1 needs Content-Type text/xml");
    const body = typeof r.body === "string" ? r.body : "";
    const wrapper = `${op.service}${upperFirst(op.operation)}Request`;
    const element = body.match(/<(?:[\w.-]+:)?Body\b[^>]*>\s*<(?:[\w.-]+:)?([\w.-]+)/)?.[1];
    if (element !== wrapper) problems.push(`Body element ${element ?? "(none)"} is not ${wrapper}`);
    if (!/<(?:[\w.-]+:)?CallContext\b[^>]*>[\s\S]*<(?:[\w.-]+:)?Company>[^<]+</.test(body))
      problems.push("no CallContext/Company header (AX would use the caller's default company)");
    problems.push(...validateAxEnvelope(body).errors);
    return { operation: op.name, problems };
  };
}

export async function judgeAxRecorded(): Promise<RequestJudge> {
  return axJudge(await axOperations());
}
