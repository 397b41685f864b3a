/**
 * Conformance: every request the connector sent in its contract test, judged by the WSDL. A POST must
 * carry the SOAPAction of a WSDL operation, a text/xml body whose Body element is that operation's input,
 * and the whole envelope must validate against the service's XSDs (xmllint). GETs may only fetch the
 * WSDL (`?wsdl`) or one of its schema parts (`?xsd=xsdN`). Anything else is unknown and fails.
 */

import type { RecordedRequest, RequestJudge, Verdict } from "../../testing/recorder";
import { schemaParts } from "./artifact";
import { type WsdlOperation, wsdlOperations } from "./wsdl";
import { validateXml } from "./xmllint";

const header = (r: RecordedRequest, name: string): string => {
  const v = r.headers[name];
  return Array.isArray(v) ? v.join(",") : (v ?? "");
};

export function uyumsoftJudge(operations: Map<string, WsdlOperation>): RequestJudge {
  const partNames = new Set(schemaParts().map((p) => p.name));
  return (r: RecordedRequest): Verdict | undefined => {
    if (r.method === "GET") {
      if ("wsdl" in r.query) return { operation: "GET ?wsdl", problems: [] };
      const xsd = r.query.xsd;
      if (typeof xsd === "string") {
        return { operation: "GET ?xsd", problems: partNames.has(xsd) ? [] : [`no schema part ${xsd}`] };
      }
      return undefined;
    }
    if (r.method !== "POST") return undefined;
    const action = header(r, "soapaction").replaceAll('"', "");
    const name = action.slice(action.lastIndexOf("/") + 1);
    const op = operations.get(name);
    if (!op)
      return { operation: action || "POST (no SOAPAction)", problems: ["not an operation of the WSDL"] };
    const problems: string[] = [];
    if (op.soapAction !== action) problems.push(`SOAPAction ${action}, the WSDL says ${op.soapAction}`);
    if (!/^text\/xml\b/.test(header(r, "content-type")))
      problems.push("SOAP 1.1 needs Content-Type text/xml");
    const body = typeof r.body === "string" ? r.body : "";
    const element = body.match(/<(?:[\w.-]+:)?Body\b[^>]*>\s*<(?:[\w.-]+:)?([\w.-]+)/)?.[1];
    if (element !== name) problems.push(`Body element ${element ?? "(none)"} is not ${name}`);
    const verdict = validateXml(body);
    problems.push(...verdict.errors);
    return { operation: name, problems };
  };
}

export async function judgeUyumsoftRecorded(): Promise<RequestJudge> {
  return uyumsoftJudge(await wsdlOperations());
}
