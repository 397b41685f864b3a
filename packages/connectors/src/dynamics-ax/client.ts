/**
 * The SOAP side of the AX 2012 connector: npm `soap` builds and reads every message from the judge's own
 * WSDL (`judge/ax-2012.wsdl`, read from disk: nothing is downloaded from the AOS), and every byte goes
 * through the SDK's HttpClient — so the same code runs direct or relayed by the on-site agent, with the
 * rate limiter, timeouts, retries of reads and masked logs. Each call carries the AIF CallContext header
 * with the configured company. Windows authentication (NTLM/Kerberos) is the agent's side: see VERIFIED.md.
 */

import type { Client } from "soap";
import type { ConnectorContext, Credentials } from "../sdk/connector";
import { ConnectorError, type FailureReason } from "../sdk/errors";
import type { HttpClient, HttpResponse } from "../sdk/http";
import { soapHttpClient } from "../sdk/soap";
import { createConnectorHttp, requireCredentials } from "../sdk/util";
import { axDescriptor } from "./descriptor";
import { AX_WSDL_PATH } from "./judge/artifact";

const SERVICES_NS = "http://schemas.microsoft.com/dynamics/2008/01/services";
const DATACONTRACTS_NS = "http://schemas.microsoft.com/dynamics/2010/01/datacontracts";

export type AxService = "SalesOrderService" | "ItemService" | "InventoryOnHandService";

/** Operations that change something in AX: never re-sent blindly. */
export const AX_WRITES: ReadonlySet<string> = new Set(["SalesOrderService.create"]);

/** `SalesOrderService.create` from a SOAPAction `…/services/SalesOrderService/create`. */
export function axOperation(soapAction: string | undefined): string {
  const action = (soapAction ?? "").replaceAll('"', "");
  const m = action.match(/\/services\/([^/]+)\/([^/]+)$/);
  return m ? `${m[1]}.${m[2]}` : action || "unknown";
}

const esc = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
const unesc = (s: string) =>
  s
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&quot;", '"')
    .replaceAll("&apos;", "'")
    .replaceAll("&amp;", "&");
const textOf = (xml: string, tag: string): string | undefined => {
  const v = xml.match(new RegExp(`<(?:[\\w.-]+:)?${tag}\\b[^>]*>([^<]*)</`))?.[1];
  return v === undefined ? undefined : unesc(v).trim();
};

/** The messages of an AifFault detail (FaultMessageListArray → FaultMessageList → FaultMessageArray → FaultMessage). */
export function aifFaultMessages(xml: string): Array<{ code?: string; message: string }> {
  const out: Array<{ code?: string; message: string }> = [];
  for (const m of xml.matchAll(
    /<(?:[\w.-]+:)?FaultMessage\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?FaultMessage>/g,
  )) {
    const inner = m[1] ?? "";
    const message = textOf(inner, "Message");
    if (message) out.push({ code: textOf(inner, "Code"), message });
  }
  return out;
}

/**
 * A SOAP Fault is a definite answer. An AifFault with messages is AX refusing the document (validation:
 * permanent; the messages are the merchant's to read); a security fault is an auth failure; an unknown
 * action is a port without that operation (config). A fault without AifFault messages from the server side
 * stays transient. (Codes beyond SOAP's Client/Server and WCF's own are not documented: inferred.)
 */
export function classifyAxFault(res: HttpResponse, operation: string): ConnectorError | undefined {
  if (!/<(?:[\w.-]+:)?Fault[\s>]/.test(res.text)) return undefined;
  const code = textOf(res.text, "faultcode") ?? "";
  const text = textOf(res.text, "faultstring") ?? "SOAP Fault";
  const messages = aifFaultMessages(res.text);
  const detail = messages.map((m) => m.message).join(" | ");
  let reason: FailureReason = "server_error";
  if (/Security|Authenticat|Authoriz|AccessDenied/i.test(code) || /not authorized|access denied/i.test(text))
    reason = "auth";
  else if (/ActionNotSupported|EndpointNotFound/i.test(code)) reason = "config";
  else if (messages.length > 0)
    reason = /not found in the relating table|does not exist/i.test(detail)
      ? /Items|Item number|ItemId/i.test(detail)
        ? "unknown_item"
        : "validation"
      : "validation";
  else if (/Client|Sender/i.test(code)) reason = "validation";
  return new ConnectorError(`dynamics-ax ${operation}: ${detail || text}`, {
    reason,
    systemCode: messages[0]?.code || code || undefined,
    systemMessage: detail || text,
    httpStatus: res.status,
    system: axDescriptor.system,
    operation,
  });
}

export interface AxConfig {
  endpoint: string;
  company: string;
  customerAccount: string;
  warehouse?: string;
  logonAsUser?: string;
}

type PortMethod = (args: unknown, cb: (err: unknown, result: unknown) => void) => void;

export class AxClient {
  readonly http: HttpClient;
  readonly cfg: AxConfig;
  private created: Promise<Client> | undefined;

  constructor(credentials: Credentials, ctx: ConnectorContext) {
    const c = requireCredentials(axDescriptor.system, axDescriptor.credentials, credentials);
    this.cfg = {
      endpoint: (c.endpoint ?? "").trim(),
      company: (c.company ?? "").trim(),
      customerAccount: (c.customerAccount ?? "").trim(),
      warehouse: c.warehouse?.trim() || undefined,
      logonAsUser: c.logonAsUser?.trim() || undefined,
    };
    this.http = createConnectorHttp(axDescriptor, ctx);
  }

  /** The CallContext SOAP header (using-the-call-context.md): company always, the AX user when configured. */
  private callContext(): string {
    const user = this.cfg.logonAsUser ? `<LogonAsUser>${esc(this.cfg.logonAsUser)}</LogonAsUser>` : "";
    return `<CallContext xmlns="${DATACONTRACTS_NS}"><Company>${esc(this.cfg.company)}</Company>${user}</CallContext>`;
  }

  private client(): Promise<Client> {
    // `soap` (and its HTTP and XML stacks) loads with the first call, not with the server.
    this.created ??= import("soap").then(({ createClientAsync }) =>
      createClientAsync(AX_WSDL_PATH, {
        httpClient: soapHttpClient(this.http, {
          operation: (_url, soapAction) => axOperation(soapAction),
          writes: AX_WRITES,
          classify: classifyAxFault,
        }),
        endpoint: this.cfg.endpoint,
      }).then((client) => {
        client.addSoapHeader(this.callContext());
        return client;
      }),
    );
    return this.created;
  }

  /** Call one operation; resolves with the response wrapper's content as `soap` parsed it. */
  async call(service: AxService, operation: string, args: unknown): Promise<Record<string, unknown>> {
    const client = await this.client();
    const ports = (client as unknown as Record<string, Record<string, Record<string, PortMethod>>>)
      .RoutingService;
    const method = ports?.[`BasicHttpBinding_${service}`]?.[operation];
    const name = `${service}.${operation}`;
    if (!method) {
      throw new ConnectorError(`dynamics-ax: the service description has no ${name}`, {
        reason: "unsupported",
        system: axDescriptor.system,
        operation: name,
      });
    }
    const result = await new Promise<unknown>((resolve, reject) => {
      method.call(ports, args, (err, res) => (err ? reject(err) : resolve(res)));
    }).catch((e: unknown) => {
      if (e instanceof ConnectorError) throw e;
      throw new ConnectorError(`dynamics-ax ${name}: unreadable answer`, {
        reason: "bad_response",
        system: axDescriptor.system,
        operation: name,
        systemMessage: e instanceof Error ? e.message : String(e),
        cause: e,
      });
    });
    return (result ?? {}) as Record<string, unknown>;
  }
}

export { SERVICES_NS };
