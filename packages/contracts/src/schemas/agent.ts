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

/** Where a database is, as the agent knows it: an alias of its own config file, or spelled out. */
export type AgentSqlTarget =
  | { alias: string }
  | {
      dialect: "mssql" | "firebird";
      host: string;
      port?: number;
      database: string;
      user: string;
      password: string;
    };

/** Server → agent: one SQL statement with `@name` parameters (dates travel as ISO text). */
export type AgentSqlRequestFrame = {
  type: "sql";
  id: string;
  target: AgentSqlTarget;
  text: string;
  params?: Record<string, string | number | boolean | null>;
  maxRows?: number;
  timeoutMs: number;
};

/**
 * Agent → server: the rows, or why not. `kind` classifies the failure without the driver's text
 * reaching the merchant: auth (login refused), unreachable, timeout, statement (the database refused
 * the statement), config (unknown alias or dialect on this agent), other.
 */
export type AgentSqlAnswerFrame =
  | {
      type: "sql-result";
      id: string;
      rows: Record<string, unknown>[];
      rowsAffected?: number;
      truncated?: boolean;
    }
  | {
      type: "sql-error";
      id: string;
      kind: "auth" | "unreachable" | "timeout" | "statement" | "config" | "other";
      code?: string;
      message: string;
    };

export type AgentRequestFrame = AgentHttpRequestFrame | AgentSqlRequestFrame;
export type AgentAnswerFrame = AgentHttpAnswerFrame | AgentSqlAnswerFrame;
