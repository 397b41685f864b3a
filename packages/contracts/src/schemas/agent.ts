/** Frames of the on-site agent's WebSocket (JSON text frames; HTTP bodies travel as base64). */

/** Agent → server: first frame after connecting, then every heartbeat. */
export type AgentHelloFrame = { type: "hello" | "heartbeat"; version: string; machineName: string };

/** Server → agent: one HTTP call to carry out inside the customer's network. */
export type AgentHttpRequestFrame = {
  type: "http";
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
  timeoutMs: number;
};

/** Agent → server: the answer to one call, or why the agent could not reach the system. */
export type AgentHttpAnswerFrame =
  | { type: "http-result"; id: string; status: number; headers: Record<string, string>; body: string }
  | { type: "http-error"; id: string; code?: string; message: string };
