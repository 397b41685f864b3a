/**
 * Frames of the on-site agent's WebSocket. HTTP bodies are bytes here; on the wire they travel raw in
 * binary frames (protocol 2) or base64 in JSON text frames (protocol 1): see `@ep/contracts/agent-wire`.
 */

/** Agent → server: first frame after connecting, then every heartbeat. */
export type AgentHelloFrame = {
  type: "hello" | "heartbeat";
  version: string;
  machineName: string;
  /** The wire protocol the agent speaks (absent: 1, JSON only). */
  protocol?: number;
  /** The agent sends long messages in parts once the server's `welcome` says it reads them. */
  parts?: boolean;
  /** The agent reads the server's `release` frames and updates itself (see `@ep/contracts/agent-update`). */
  updates?: boolean;
};

/** Server → agent: one HTTP call to carry out inside the customer's network. */
export type AgentHttpRequestFrame = {
  type: "http";
  id: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
};

/** Agent → server: the answer to one call, or why the agent could not reach the system. */
export type AgentHttpAnswerFrame =
  | { type: "http-result"; id: string; status: number; headers: Record<string, string>; body: Uint8Array }
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
  /** A merchant's read: run where no write can last (rolled back on SQL Server, read-only on Firebird). */
  readOnly?: boolean;
};

/**
 * Agent → server: the rows, or why not. `kind` classifies the failure without the driver's text
 * reaching the merchant: auth (login refused), unreachable, timeout, lock (a row another transaction
 * holds: the statement waited its bound and was rolled back; try again later), statement (the database
 * refused the statement), config (unknown alias or dialect on this agent), other.
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
      kind: "auth" | "unreachable" | "timeout" | "lock" | "statement" | "config" | "other";
      code?: string;
      message: string;
    };

export type AgentRequestFrame = AgentHttpRequestFrame | AgentSqlRequestFrame;
export type AgentAnswerFrame = AgentHttpAnswerFrame | AgentSqlAnswerFrame;

/** Files of the agent's watched folders: what each folder holds, and the largest file sent. */
export type AgentFolderKind = "products" | "stock" | "prices";
export const AGENT_FILE_MAX_BYTES = 20 * 1024 * 1024;

/** One watched folder as the agent reports it (the panel's watched-folder status). */
export type AgentFolderStatus = {
  path: string;
  kind: AgentFolderKind;
  outbox: string | null;
  /** False when the folder cannot be read (missing, no permission). */
  readable: boolean;
  lastFile: string | null;
  lastResult: string | null;
  lastAt: string | null;
};

/** Agent → server: its watched folders, at connect and after each file. */
export type AgentFoldersFrame = { type: "folders"; folders: AgentFolderStatus[] };

/** Agent → server: one file of a watched folder (whole, base64; at most AGENT_FILE_MAX_BYTES). */
export type AgentFileFrame = {
  type: "file-import";
  id: string;
  kind: AgentFolderKind;
  name: string;
  /** sha256 of the content (hex): the same file is imported once, whatever the resends. */
  sha256: string;
  content: string;
};

/** Server → agent: the file's per-row result (`duplicate`: imported before, the earlier result). */
export type AgentFileResultFrame = {
  type: "file-import-result";
  id: string;
  status: "imported" | "duplicate" | "rejected" | "refused";
  importId: number | null;
  accepted: number;
  rejected: number;
  rows: Array<{ row: number; key: string; accepted: boolean; reasons: string[] }>;
  /** Turkish reason when the whole file was refused (unreadable, too large, not a file system). */
  message: string | null;
};

/** Server → agent: an orders file to drop into the outbox folder. */
export type AgentFileOutFrame = {
  type: "file-out";
  id: string;
  exportId: number;
  name: string;
  content: string;
};

/** Agent → server: the orders file is in the outbox (or why not). */
export type AgentFileOutDoneFrame = {
  type: "file-out-done";
  id: string;
  exportId: number;
  ok: boolean;
  message: string | null;
};

/** One on-site agent as the panel lists it (GET /api/agents). */
export type AgentView = {
  id: number;
  machineName: string;
  version: string;
  online: boolean;
  lastSeenAt: string | null;
  /** For the panel: "Yerel bağlantı aracı çevrimdışı (son görülme: …)" while offline, else null. */
  statusText: string | null;
  /** WebSocket ping round trip, when this process holds the agent's socket. */
  roundTripMs: number | null;
  /** The version this server offers for download, when the agent runs another one (else null). */
  newerVersion: string | null;
  /** The company's connections this agent serves, and whether it is the one carrying their calls now. */
  serves: { kind: "erp" | "shop"; active: boolean }[];
  /** The agent is installing a new version now (panel: "Güncelleniyor"). */
  updating: boolean;
  /** The hours (agent's local clock) it may update in: [from, to), from = to: any hour. */
  updateWindow: { from: number; to: number };
  createdAt: string;
};
