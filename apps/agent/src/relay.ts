/// <reference path="./ntlm-client.d.ts" />
/** Carries out one HTTP call the server relayed, against a system inside this network. */

import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { hostname } from "node:os";
import type { AgentHttpAnswerFrame, AgentHttpRequestFrame } from "@ep/contracts";
import ntlm from "@ewsjs/ntlm-client";
import type { AgentHttpAuth } from "./store.ts";

// Set by the transport for this hop, not by the caller; the body arrives already decoded.
const HOP_HEADERS = new Set(["host", "connection", "content-length", "transfer-encoding", "keep-alive"]);
const DECODED_HEADERS = new Set(["content-encoding", "content-length", "transfer-encoding", "connection"]);

/** The system error code (ECONNREFUSED…) somewhere down a fetch error's causes. */
export function codeOf(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur && typeof cur === "object"; i++) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const errors = (cur as { errors?: unknown[] }).errors;
    cur = (cur as { cause?: unknown }).cause ?? errors?.[0];
  }
  return undefined;
}

/** The auth entry of a request's host: `host:port` first, then the host alone. */
export function authFor(url: string, auth: AgentHttpAuth): AgentHttpAuth[string] | undefined {
  const u = new URL(url);
  return auth[u.host.toLowerCase()] ?? auth[u.hostname.toLowerCase()];
}

export async function performHttp(
  req: AgentHttpRequestFrame,
  auth: AgentHttpAuth = {},
): Promise<AgentHttpAnswerFrame> {
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase())),
  );
  const windows = authFor(req.url, auth);
  if (windows) return ntlmHttp(req, headers, windows);
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers,
      body: req.body,
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    const body = Buffer.from(await res.arrayBuffer());
    const answerHeaders = Object.fromEntries(
      [...res.headers].filter(([name]) => !DECODED_HEADERS.has(name.toLowerCase())),
    );
    return { type: "http-result", id: req.id, status: res.status, headers: answerHeaders, body };
  } catch (e) {
    const timedOut = e instanceof DOMException && e.name === "TimeoutError";
    return {
      type: "http-error",
      id: req.id,
      code: timedOut ? "ETIMEDOUT" : codeOf(e),
      message: e instanceof Error ? e.message : String(e),
    };
  }
}

type Answer = { status: number; headers: IncomingHttpHeaders; body: Buffer };

/**
 * The call with NTLM (Windows) authentication, as IIS in front of AX 2012's AIF services wants it: the
 * request goes with a Type 1 message, the server's 401 carries its challenge (Type 2), and the request
 * goes again with the Type 3 answer on the same connection (NTLM authenticates the connection, so one
 * socket is kept for the pair). A server that answers the first request without a challenge has done
 * it: that answer is returned and nothing is sent twice. Messages: the maintained `@ewsjs/ntlm-client`.
 */
async function ntlmHttp(
  req: AgentHttpRequestFrame,
  headers: Record<string, string>,
  entry: AgentHttpAuth[string],
): Promise<AgentHttpAnswerFrame> {
  const url = new URL(req.url);
  const secure = url.protocol === "https:";
  const agent = secure
    ? new HttpsAgent({ keepAlive: true, maxSockets: 1 })
    : new HttpAgent({ keepAlive: true, maxSockets: 1 });
  const body = req.body;
  const signal = AbortSignal.timeout(req.timeoutMs);
  const workstation = hostname().toUpperCase();
  const send = (authorization: string) =>
    new Promise<Answer>((resolve, reject) => {
      const out = (secure ? httpsRequest : httpRequest)(
        url,
        {
          method: req.method,
          agent,
          signal,
          headers: {
            ...headers,
            authorization,
            ...(body ? { "content-length": String(body.length) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
          );
          res.on("error", reject);
        },
      );
      out.on("error", reject);
      out.end(body);
    });
  const answer = (a: Answer): AgentHttpAnswerFrame => ({
    type: "http-result",
    id: req.id,
    status: a.status,
    headers: Object.fromEntries(
      Object.entries(a.headers)
        .filter(([name, v]) => v !== undefined && !DECODED_HEADERS.has(name.toLowerCase()))
        .map(([name, v]) => [name, Array.isArray(v) ? v.join(", ") : String(v)]),
    ),
    body: a.body,
  });
  try {
    const first = await send(ntlm.createType1Message(workstation, entry.domain));
    const offered = [first.headers["www-authenticate"] ?? []].flat().join(",");
    const challenge = /NTLM\s+([A-Za-z0-9+/=]+)/.exec(offered)?.[1];
    if (first.status !== 401 || !challenge) return answer(first);
    const type2 = ntlm.decodeType2Message(`NTLM ${challenge}`);
    return answer(
      await send(ntlm.createType3Message(type2, entry.user, entry.password, workstation, entry.domain)),
    );
  } catch (e) {
    const timedOut = signal.aborted || (e instanceof Error && e.name === "AbortError");
    return {
      type: "http-error",
      id: req.id,
      code: timedOut ? "ETIMEDOUT" : codeOf(e),
      message: e instanceof Error ? e.message : String(e),
    };
  } finally {
    agent.destroy();
  }
}
