/**
 * npm `soap`'s transport hook answered by the SDK's HttpClient: every byte a SOAP connector sends (a
 * WSDL or XSD download too) gets the rate limiter, timeouts, retries of reads and masked logs, and runs
 * the same direct or relayed by the on-site agent.
 */

import type { IHttpClient } from "soap";
import type { ConnectorError } from "./errors";
import type { HttpClient, HttpResponse } from "./http";

/** How a SOAP service names its operations and reads its faults. */
export interface SoapService {
  /** The operation a request is for, from its SOAPAction (none: a WSDL/XSD download). */
  operation(url: string, soapAction: string | undefined): string;
  /** Operations that change something at the service: never re-sent blindly. */
  writes: ReadonlySet<string>;
  /** The service's SOAP Fault in an answer as a ConnectorError (undefined: not a fault). */
  classify(res: HttpResponse, operation: string): ConnectorError | undefined;
}

/** The `httpClient` option of `soap.createClientAsync`: a message is POSTed, anything else is a GET. */
export function soapHttpClient(http: HttpClient, service: SoapService): IHttpClient {
  return {
    request(url, data, callback, exheaders) {
      const soapAction = typeof exheaders?.SOAPAction === "string" ? exheaders.SOAPAction : undefined;
      const operation = service.operation(url, soapAction);
      const write = service.writes.has(operation);
      const isPost = typeof data === "string";
      const done = http
        .request({
          method: isPost ? "POST" : "GET",
          url,
          operation,
          kind: write ? "write" : "read",
          idempotent: !write,
          body: isPost ? { text: data, contentType: "text/xml; charset=utf-8" } : undefined,
          headers: () => ({ accept: "text/xml", ...(soapAction ? { SOAPAction: soapAction } : {}) }),
          classify: (res) => service.classify(res, operation),
        })
        .then(
          (res) => {
            const headers: Record<string, string> = {};
            res.headers.forEach((value, key) => {
              headers[key] = value;
            });
            const response = { status: res.status, headers, data: res.text };
            callback(null, response, res.text);
            return response;
          },
          (e: unknown) => {
            callback(e);
            return undefined;
          },
        );
      // `soap` only uses the callback; the promise is its axios signature.
      return done as unknown as ReturnType<IHttpClient["request"]>;
    },
  };
}
