/**
 * The SOAP side of the Uyumsoft connector: npm `soap` builds and reads the messages from the service's
 * own WSDL, and every byte it sends (the WSDL and XSD downloads too) goes through the SDK's HttpClient —
 * rate limiter, timeouts, retries of reads, masked logs. Credentials travel as a WS-Security
 * UsernameToken (PasswordText) with a Timestamp, as the WSDL's policy asks (TransportBinding over HTTPS,
 * IncludeTimestamp, SignedSupportingTokens/WssUsernameToken10).
 */

import type { Client } from "soap";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { soapHttpClient } from "../sdk/soap";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { UYUMSOFT_TEST_ENDPOINT, uyumsoftDescriptor } from "./descriptor";

/** Operations that change something at Uyumsoft: never re-sent blindly. */
export const UYUMSOFT_WRITES: ReadonlySet<string> = new Set([
  "SendInvoice",
  "SaveAsDraft",
  "CancelEArchiveInvoice",
]);

/** The operation a request is for: the last part of its SOAPAction, or the WSDL/XSD download. */
export function soapOperation(url: string, soapAction: string | undefined): string {
  if (soapAction) {
    const action = soapAction.replaceAll('"', "");
    return action.slice(action.lastIndexOf("/") + 1);
  }
  return /[?&]xsd=/i.test(url) ? "xsd" : "wsdl";
}

const textOf = (xml: string, tag: string): string | undefined =>
  xml.match(new RegExp(`<(?:[\\w.-]+:)?${tag}[^>]*>([^<]*)</`))?.[1]?.trim();

/**
 * A SOAP Fault is a definite answer, not a lost one: a security fault is an auth failure, a client fault
 * a refusal of the message; only a server fault stays transient. (Fault codes beyond SOAP's own
 * Client/Server and WCF's security codes are not documented by Uyumsoft: inferred.)
 */
export function classifySoapFault(res: HttpResponse, operation: string): ConnectorError | undefined {
  if (!/<(?:[\w.-]+:)?Fault[\s>]/.test(res.text)) return undefined;
  const code = textOf(res.text, "faultcode") ?? "";
  const text = textOf(res.text, "faultstring") ?? "SOAP Fault";
  let reason: FailureReason = "server_error";
  if (
    /Security|Authenticat|Authoriz/i.test(code) ||
    /kullanıcı adı|şifre|password|security token|AuthorizedServiceMethodAttribute/i.test(text)
  )
    reason = "auth";
  else if (/Client|Deserializ|Sender/i.test(code)) reason = "validation";
  return new ConnectorError(`uyumsoft ${operation}: ${text}`, {
    reason,
    systemCode: code || undefined,
    systemMessage: text,
    httpStatus: res.status,
    system: uyumsoftDescriptor.system,
    operation,
  });
}

export interface UyumsoftSession {
  http: HttpClient;
  endpoint: string;
  username: string;
  /** The soap client (created on first use: it downloads the WSDL). */
  client(): Promise<Client>;
}

/** `soap`'s `…Async` method of an operation, typed loosely (results are read defensively). */
type AsyncMethod = (args: unknown) => Promise<[unknown, string, unknown, string]>;

/** Call one WSDL operation; resolves with the `…Result` element as `soap` parsed it. */
export async function callOperation(
  session: UyumsoftSession,
  operation: string,
  args: unknown,
): Promise<Record<string, unknown>> {
  const client = await session.client();
  const method = (client as unknown as Record<string, AsyncMethod | undefined>)[`${operation}Async`];
  if (!method) {
    throw new ConnectorError(`uyumsoft: the service description has no ${operation}`, {
      reason: "unsupported",
      system: uyumsoftDescriptor.system,
      operation,
    });
  }
  let result: unknown;
  try {
    [result] = await method.call(client, args);
  } catch (e) {
    if (e instanceof ConnectorError) throw e;
    throw new ConnectorError(`uyumsoft ${operation}: unreadable answer`, {
      reason: "bad_response",
      system: uyumsoftDescriptor.system,
      operation,
      systemMessage: e instanceof Error ? e.message : String(e),
      cause: e,
    });
  }
  const body = (result ?? {}) as Record<string, unknown>;
  const inner = body[`${operation}Result`];
  if (!inner || typeof inner !== "object") {
    throw new ConnectorError(`uyumsoft ${operation}: answer without ${operation}Result`, {
      reason: "bad_response",
      system: uyumsoftDescriptor.system,
      operation,
    });
  }
  const out = inner as Record<string, unknown>;
  const attrs = (out.attributes ?? {}) as Record<string, unknown>;
  // Every result extends Response: IsSucceded="false" + Message is a refusal inside HTTP 200.
  if (String(attrs.IsSucceded) === "false") {
    const msg = String(attrs.Message ?? "");
    throw new ConnectorError(`uyumsoft ${operation}: ${msg || "refused"}`, {
      reason: /yetki|kullanıcı adı|şifre|oturum/i.test(msg) ? "auth" : "validation",
      systemMessage: msg || undefined,
      system: uyumsoftDescriptor.system,
      operation,
    });
  }
  return out;
}

/** Build a session from the connection settings. */
export function createUyumsoftSession(credentials: Credentials, ctx: ConnectorContext): UyumsoftSession {
  const c = requireCredentials(uyumsoftDescriptor.system, uyumsoftDescriptor.credentials, credentials);
  const endpoint = (c.endpoint ?? UYUMSOFT_TEST_ENDPOINT).replace(/\/+$/, "");
  const username = c.username ?? "";
  const password = c.password ?? "";
  const http = createConnectorHttp(uyumsoftDescriptor, ctx, { secrets: [password] });
  const transport = soapHttpClient(http, {
    operation: soapOperation,
    writes: UYUMSOFT_WRITES,
    classify: classifySoapFault,
  });
  let created: Promise<Client> | undefined;
  const client = () => {
    // `soap` (and its HTTP and XML stacks) loads with the first call, not with the server.
    created ??= import("soap")
      .then(({ createClientAsync, WSSecurity }) =>
        createClientAsync(`${endpoint}?wsdl`, {
          httpClient: transport,
          endpoint,
          // `soap` keeps each parsed WSDL per address for the process's life: one download per endpoint,
          // not one per connector (the description is public and the same for every company).
          wsdl_options: {
            // The WSDL imports its schema parts by the vendor host's absolute URL: fetch them from ours.
            overrideImportLocation: (location: string) => {
              const part = location.match(/[?&](xsd=xsd\d+)/i)?.[1];
              return part ? `${endpoint}?${part}` : location;
            },
          },
        }).then((soapClient) => {
          soapClient.setSecurity(
            new WSSecurity(username, password, {
              passwordType: "PasswordText",
              hasTimeStamp: true,
              hasNonce: false,
              hasTokenCreated: false,
            }),
          );
          return soapClient;
        }),
      )
      .catch((e: unknown) => {
        created = undefined;
        throw e instanceof ConnectorError
          ? e
          : new ConnectorError("uyumsoft: the service description (WSDL) could not be read", {
              reason: "bad_response",
              system: uyumsoftDescriptor.system,
              operation: "wsdl",
              systemMessage: e instanceof Error ? e.message : String(e),
              cause: e,
            });
      });
    return created;
  };
  return { http, endpoint, username, client };
}
