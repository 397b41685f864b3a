import {
  appendFileSync,
  chmodSync,
  mkdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AgentFolderKind, AgentSqlTarget } from "@ep/contracts";

export type AgentConfig = {
  server: string;
  agentId: number;
  credential: string;
  /** The office's proxy, credentials included (this file is 0600): `service install --proxy`. */
  proxy?: string;
};
/** Databases this agent may query, by alias; passwords stay in this file (mode 0600). */
export type AgentDatabases = Record<string, Extract<AgentSqlTarget, { dialect: string }>>;
/**
 * Windows (NTLM) accounts the agent uses when it relays HTTP to a host of this network, by `host[:port]`
 * of the URL; passwords stay in this file (mode 0600), never on the server.
 */
export type AgentHttpAuth = Record<
  string,
  { scheme: "ntlm"; domain: string; user: string; password: string }
>;
/** A watched folder: the kind of file it holds, and where orders files go (if anywhere). */
export type AgentFolder = { path: string; kind: AgentFolderKind; outbox: string | null };
export type AgentState = "connecting" | "online" | "offline" | "refused" | "stopped";
export type AgentStatus = {
  state: AgentState;
  server: string;
  connectedAt: string | null;
  lastError: string | null;
  updatedAt: string;
};

export const LOG_ROTATE_BYTES = 5 * 1024 * 1024;
const LOG_KEEP = 5;

/** Where the agent keeps its config (credential), status and log; one directory per installation. */
export function defaultHome(): string {
  return process.env.ENTEGRASYON_AGENT_HOME ?? join(homedir(), ".entegrasyon-agent");
}

export class AgentStore {
  constructor(readonly home: string = defaultHome()) {}

  private path(name: string) {
    return join(this.home, name);
  }

  private ensureHome() {
    mkdirSync(this.home, { recursive: true, mode: 0o700 });
  }

  /** The credential is a secret: the file is readable by the service account alone. */
  saveConfig(config: AgentConfig): void {
    this.ensureHome();
    const file = this.path("config.json");
    writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }

  loadConfig(): AgentConfig | undefined {
    return readJson<AgentConfig>(this.path("config.json"));
  }

  saveDatabases(databases: AgentDatabases): void {
    this.ensureHome();
    const file = this.path("databases.json");
    writeFileSync(file, `${JSON.stringify(databases, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }

  loadDatabases(): AgentDatabases {
    return readJson<AgentDatabases>(this.path("databases.json")) ?? {};
  }

  saveHttpAuth(auth: AgentHttpAuth): void {
    this.ensureHome();
    const file = this.path("http-auth.json");
    writeFileSync(file, `${JSON.stringify(auth, null, 2)}\n`, { mode: 0o600 });
    chmodSync(file, 0o600);
  }

  loadHttpAuth(): AgentHttpAuth {
    return readJson<AgentHttpAuth>(this.path("http-auth.json")) ?? {};
  }

  /** The watched folders (`folder add|list|remove`), kept like `databases.json`. */
  saveFolders(folders: AgentFolder[]): void {
    this.ensureHome();
    writeFileSync(this.path("folders.json"), `${JSON.stringify(folders, null, 2)}\n`, { mode: 0o600 });
  }

  loadFolders(): AgentFolder[] {
    return readJson<AgentFolder[]>(this.path("folders.json")) ?? [];
  }

  saveStatus(status: AgentStatus): void {
    this.ensureHome();
    writeFileSync(this.path("status.json"), `${JSON.stringify(status, null, 2)}\n`);
  }

  loadStatus(): AgentStatus | undefined {
    return readJson<AgentStatus>(this.path("status.json"));
  }

  /** Appends to agent.log; past LOG_ROTATE_BYTES it becomes agent.log.1 (older ones shift, LOG_KEEP kept). */
  log(line: string): void {
    this.ensureHome();
    const file = this.path("agent.log");
    let size = 0;
    try {
      size = statSync(file).size;
    } catch {}
    if (size >= LOG_ROTATE_BYTES) {
      for (let i = LOG_KEEP - 1; i >= 1; i--) {
        try {
          renameSync(`${file}.${i}`, `${file}.${i + 1}`);
        } catch {}
      }
      renameSync(file, `${file}.1`);
    }
    appendFileSync(file, `${new Date().toISOString()} ${line}\n`);
  }
}

function readJson<T>(file: string): T | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
  return JSON.parse(text) as T;
}
