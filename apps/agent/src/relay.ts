/** Carries out one HTTP call the server relayed, against a system inside this network. */

import type { AgentHttpAnswerFrame, AgentHttpRequestFrame } from "@ep/contracts";

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

export async function performHttp(req: AgentHttpRequestFrame): Promise<AgentHttpAnswerFrame> {
  const headers = Object.fromEntries(
    Object.entries(req.headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase())),
  );
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers,
      body: req.body === undefined ? undefined : Buffer.from(req.body, "base64"),
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    const body = Buffer.from(await res.arrayBuffer()).toString("base64");
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
