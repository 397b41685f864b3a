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
 *
 * Protocol 3: the server bounds each WebSocket message from an agent (AGENT_MAX_PAYLOAD) and says so in
 * a `welcome` frame; after it, the agent sends any message longer than AGENT_PART_BYTES as parts
 * (`part` frames, binary, or JSON text with the bytes base64 for an agent kept on JSON), which the server
 * reassembles within a per-message bound and a budget shared by all of its agents.
 */
import type { AgentAnswerFrame, AgentRequestFrame } from "./schemas/agent.ts";

export const AGENT_PROTOCOL = 3;
/** The first protocol with binary HTTP frames. */
export const AGENT_BINARY_PROTOCOL = 2;
/** The largest WebSocket message the server takes from an agent (a larger one closes the socket, 1009). */
export const AGENT_MAX_PAYLOAD = 4 * 1024 * 1024;
/** Messages longer than this travel in parts of this size (the part's header and base64 fit the bound). */
export const AGENT_PART_BYTES = 1024 * 1024;

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

/** A slice of one long message: `seq` from 0, `last` on the final one; `text` = the message was text. */
type PartHeader = { type: "part"; id: string; seq: number; last: boolean; text: boolean };

/**
 * A message (as `encodeAgentFrame` made it) longer than `partBytes`, cut into `part` frames; undefined
 * when it fits in one. Binary parts carry the slice raw; `json` parts (an agent kept on JSON) base64.
 */
export function agentMessageParts(
  message: string | Buffer,
  id: string,
  json: boolean,
  partBytes = AGENT_PART_BYTES,
): (string | Buffer)[] | undefined {
  const bytes = typeof message === "string" ? Buffer.from(message) : message;
  if (bytes.length <= partBytes) return undefined;
  const parts: (string | Buffer)[] = [];
  for (let seq = 0, at = 0; at < bytes.length; seq++, at += partBytes) {
    const slice = bytes.subarray(at, at + partBytes);
    const head: PartHeader = {
      type: "part",
      id,
      seq,
      last: at + partBytes >= bytes.length,
      text: typeof message === "string",
    };
    if (json) parts.push(JSON.stringify({ ...head, data: slice.toString("base64") }));
    else {
      const header = Buffer.from(JSON.stringify(head));
      const out = Buffer.allocUnsafe(4 + header.length + slice.length);
      out.writeUInt32BE(header.length, 0);
      header.copy(out, 4);
      slice.copy(out, 4 + header.length);
      parts.push(out);
    }
  }
  return parts;
}

export class AgentMessageTooLarge extends Error {
  constructor(readonly bytes: number) {
    super(`agent message above the bound (${bytes} bytes)`);
    this.name = "AgentMessageTooLarge";
  }
}

/** Bytes held by every assembler sharing it (one per server process): the bound on all agents together. */
export type AgentPartBudget = { used: number; max: number };

/**
 * Reassembles one socket's parted messages. `accept` answers undefined for a message that is not a part
 * (handle it as is), null while a message is incomplete, and the whole message once its last part came.
 * A message above `maxMessageBytes`, a part out of order, or the shared budget spent throws
 * AgentMessageTooLarge: the caller closes the socket (the agent's open calls then fail as lost).
 */
export class AgentPartAssembler {
  private readonly open = new Map<string, { seq: number; bytes: number; chunks: Buffer[] }>();

  constructor(
    private readonly maxMessageBytes: number,
    private readonly budget: AgentPartBudget,
  ) {}

  accept(data: AgentRawData, isBinary: boolean): { data: Buffer; isBinary: boolean } | null | undefined {
    const bytes = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    let head: PartHeader & { data?: unknown };
    let slice: Buffer;
    if (isBinary) {
      if (bytes.length < 4) return undefined;
      const end = 4 + bytes.readUInt32BE(0);
      if (end > bytes.length) return undefined;
      head = parseHead(bytes.toString("utf8", 4, end));
      slice = bytes.subarray(end);
    } else {
      // A cheap look before parsing: only text parts start this way (JSON.stringify's key order).
      if (!bytes.subarray(0, 16).toString("latin1").startsWith('{"type":"part"')) return undefined;
      head = parseHead(bytes.toString("utf8"));
      slice = typeof head.data === "string" ? Buffer.from(head.data, "base64") : Buffer.alloc(0);
    }
    if (head.type !== "part" || typeof head.id !== "string") return undefined;
    const entry = this.open.get(head.id) ?? { seq: 0, bytes: 0, chunks: [] };
    if (head.seq !== entry.seq) throw this.fail(entry.bytes);
    entry.seq++;
    entry.bytes += slice.length;
    this.budget.used += slice.length;
    entry.chunks.push(Buffer.from(slice));
    this.open.set(head.id, entry);
    if (entry.bytes > this.maxMessageBytes || this.budget.used > this.budget.max)
      throw this.fail(entry.bytes);
    if (!head.last) return null;
    this.open.delete(head.id);
    this.budget.used -= entry.bytes;
    return { data: Buffer.concat(entry.chunks, entry.bytes), isBinary: !head.text };
  }

  /** Frees what the socket's unfinished messages hold (its socket closed). */
  release(): void {
    for (const entry of this.open.values()) this.budget.used -= entry.bytes;
    this.open.clear();
  }

  private fail(bytes: number): AgentMessageTooLarge {
    this.release();
    return new AgentMessageTooLarge(bytes);
  }
}

function parseHead(text: string): PartHeader & { data?: unknown } {
  try {
    const v = JSON.parse(text) as PartHeader;
    return v && typeof v === "object" ? v : ({} as PartHeader);
  } catch {
    return {} as PartHeader;
  }
}
