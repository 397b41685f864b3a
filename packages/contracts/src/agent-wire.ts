/**
 * The agent socket's wire forms (Node only: server and agent, never the web app).
 *
 * Protocol 1: every frame is a JSON text frame; HTTP bodies travel base64 in it.
 * Protocol 2: an HTTP call and its answer travel as one binary frame instead: a 4-byte big-endian
 * header length, the frame's JSON without its body, then the body's raw bytes; a body is then never
 * base64-encoded, copied into a JSON string and parsed back, which was most of the relay's cost per
 * page. Every other frame stays JSON text.
 *
 * Negotiation: the agent says `protocol` in its hello; the server writes binary only to an agent whose
 * hello says 2 or more, and the agent answers each call in the form it came in. An older agent (no
 * `protocol`) keeps getting JSON, and a newer agent behind an older server answers it in JSON.
 */
import type { AgentAnswerFrame, AgentRequestFrame } from "./schemas/agent.ts";

export const AGENT_PROTOCOL = 2;

/** What `ws` hands a message listener (its default binaryType). */
export type AgentRawData = Buffer | ArrayBuffer | Buffer[];

type AnyFrame = AgentRequestFrame | AgentAnswerFrame | { type: string };
type BodyFrame = { type: "http" | "http-result"; body?: Uint8Array };

const carriesBody = (frame: AnyFrame): frame is AnyFrame & BodyFrame =>
  frame.type === "http" || frame.type === "http-result";

const asBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The frame as a JSON value (protocol 1, and the cross-process route's rows): bodies base64. */
export function agentFrameToJson(frame: AnyFrame): object {
  if (!carriesBody(frame) || frame.body === undefined) return frame;
  return { ...frame, body: asBuffer(frame.body).toString("base64") };
}

/** The reverse of `agentFrameToJson`: a base64 body back to bytes. */
export function agentFrameFromJson<T extends AnyFrame>(value: unknown): T | undefined {
  if (!value || typeof value !== "object" || typeof (value as { type?: unknown }).type !== "string")
    return undefined;
  const frame = value as AnyFrame & { body?: unknown };
  if (carriesBody(frame) && typeof frame.body === "string") frame.body = Buffer.from(frame.body, "base64");
  return frame as T;
}

/** One frame to send: binary for HTTP frames when the other side speaks protocol 2, JSON text otherwise. */
export function encodeAgentFrame(frame: AnyFrame, binary: boolean): string | Buffer {
  if (!binary || !carriesBody(frame)) return JSON.stringify(agentFrameToJson(frame));
  const { body, ...head } = frame;
  // A call without a body (GET) is told apart from an empty one.
  const header = Buffer.from(JSON.stringify(body === undefined ? { ...head, noBody: true } : head));
  const bytes = body ?? new Uint8Array(0);
  const out = Buffer.allocUnsafe(4 + header.length + bytes.byteLength);
  out.writeUInt32BE(header.length, 0);
  header.copy(out, 4);
  out.set(bytes, 4 + header.length);
  return out;
}

/** One received frame, either form; undefined when it is neither (ignored, as before). */
export function decodeAgentFrame<T extends AnyFrame>(data: AgentRawData, isBinary: boolean): T | undefined {
  const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  try {
    if (!isBinary) return agentFrameFromJson<T>(JSON.parse(bytes.toString("utf8")));
    if (bytes.length < 4) return undefined;
    const end = 4 + bytes.readUInt32BE(0);
    if (end > bytes.length) return undefined;
    const frame = JSON.parse(bytes.toString("utf8", 4, end)) as AnyFrame & {
      noBody?: boolean;
      body?: unknown;
    };
    if (!carriesBody(frame)) return undefined;
    if (frame.noBody) delete frame.noBody;
    // A view into the received message: no copy of the body.
    else frame.body = bytes.subarray(end);
    return frame as T;
  } catch {
    return undefined;
  }
}
