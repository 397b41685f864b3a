import { spawn } from "node:child_process";
import { createHash, createPublicKey, verify } from "node:crypto";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  createWriteStream,
  existsSync,
  fsyncSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { type Agent as HttpAgent, request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import {
  AGENT_UPDATE_PATH,
  type AgentReleaseFrame,
  type AgentUpdateFrame,
  inUpdateWindow,
  isNewerVersion,
  releaseMessage,
} from "@ep/contracts/agent-update";
import type { AgentConfig, AgentStore } from "../store.ts";

declare const __AGENT_UPDATE_KEY__: string | undefined;

/** The public half of the build's signing key (SPKI DER, base64), stamped in by build-exe.mjs. */
export const BUILT_UPDATE_KEY = typeof __AGENT_UPDATE_KEY__ === "string" ? __AGENT_UPDATE_KEY__ : undefined;

/** Exit code that asks the service manager (systemd Restart=always, WinSW onfailure) for a restart. */
export const EXIT_RESTART = 75;
/** The new version must connect and be greeted by the server within this, else the old file comes back. */
export const UPDATE_DEADLINE_MS = 60_000;
/** No update while a relayed call is in flight, nor within this after the last one (a run's calls). */
export const UPDATE_QUIET_MS = 30_000;
/** After a failed download, the next try waits this long. */
const RETRY_AFTER_MS = 10 * 60_000;
/** The largest file the agent takes as its new executable. */
const MAX_UPDATE_BYTES = 400 * 1024 * 1024;

/** The update's progress, kept in the agent's home so a restart (or a kill) finds where it stopped. */
type UpdateState = {
  phase: "swapping" | "swapped" | "rolled-back" | null;
  from?: string;
  to?: string;
  /** The new version must be online by then (epoch ms). */
  deadline?: number;
  /** Versions refused here (bad signature, did not come online): not tried again. */
  refused: string[];
};

/** What the updater needs of the running client (AgentClient). */
export type UpdaterClient = {
  activity(): { inFlight: number; lastCallAt: number };
  notify(frame: object): boolean;
  stop(): void;
  readonly proxy: HttpAgent | undefined;
};

export type UpdaterOptions = {
  store: AgentStore;
  config: AgentConfig;
  /** The version this process runs. */
  version: string;
  /** The executable file to replace (the single executable; none when run from the sources). */
  exe: string | undefined;
  /** The arguments to start it with again (re-spawn when no service manager restarts it). */
  args: string[];
  /** Run by systemd / WinSW: exit with EXIT_RESTART and let the service manager start the new file. */
  service: boolean;
  publicKey: string | undefined;
  deadlineMs?: number;
  quietMs?: number;
  /** Tests only: stop at this step (downloaded, backed-up, replaced, new-offline) to be killed there. */
  hold?: string;
  exit?: (code: number) => void;
};

/** Whether `signature` is the build key's over this version, platform and file hash. */
export function verifyRelease(
  publicKey: string,
  release: { version: string; platform: string; sha256: string; signature: string },
): boolean {
  try {
    const key = createPublicKey({ key: Buffer.from(publicKey, "base64"), format: "der", type: "spki" });
    const text = releaseMessage(release.version, release.platform, release.sha256);
    return verify(null, Buffer.from(text), key, Buffer.from(release.signature, "base64"));
  } catch {
    return false;
  }
}

const platformName = () => (process.platform === "win32" ? "windows" : "linux");

/** Written whole or not at all (temporary file, flushed, renamed over). */
function writeDurably(file: string, text: string) {
  const temp = `${file}.tmp`;
  writeFileSync(temp, text);
  flush(temp);
  renameSync(temp, file);
}

function flush(file: string) {
  const fd = openSync(file, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

const removeQuietly = (file: string) => {
  try {
    rmSync(file, { force: true });
  } catch {}
};

/**
 * The agent's self-update: on the server's `release` frame, an older agent inside the merchant's hours
 * and with no call in flight downloads the new file, checks its Ed25519 signature against the key built
 * into it, keeps its own file as `<exe>.old`, puts the new one in place (one rename) and restarts. The
 * new process commits when the server greets it; if it is not online within the deadline the old file
 * is put back. Every step is in `update.json`, so a kill at any point leaves a whole old or new file.
 */
export class AgentUpdater {
  private client: UpdaterClient | undefined;
  private updating = false;
  private retryAt = 0;
  /** This process is a new version waiting to be greeted (commit) before the deadline. */
  private pending: { deadline: number; timer: NodeJS.Timeout } | undefined;
  /** A report for the server, sent at the next release frame (after a restart). */
  private report: AgentUpdateFrame | undefined;
  private warnedOff = false;

  constructor(private readonly o: UpdaterOptions) {}

  private get stateFile() {
    return join(this.o.store.home, "update.json");
  }
  private get fresh() {
    return `${this.o.exe}.new`;
  }
  private get backup() {
    return `${this.o.exe}.old`;
  }

  private load(): UpdateState {
    try {
      return {
        phase: null,
        refused: [],
        ...(JSON.parse(readFileSync(this.stateFile, "utf8")) as Partial<UpdateState>),
      };
    } catch {
      return { phase: null, refused: [] };
    }
  }

  private save(state: UpdateState) {
    writeDurably(this.stateFile, `${JSON.stringify(state, null, 2)}\n`);
  }

  private log(line: string) {
    this.o.store.log(`update: ${line}`);
  }

  private exit(code: number) {
    (this.o.exit ?? process.exit)(code);
  }

  /**
   * At start, before connecting: finishes or undoes what a previous process left. Answers true when this
   * process must not connect (tests: a new version that never comes online).
   */
  recover(): boolean {
    if (!this.o.exe) return false;
    const state = this.load();
    const { from, to } = state;
    if (state.phase === null) {
      // A download cut short, or a backup a committed update could not delete (Windows: still running).
      removeQuietly(this.fresh);
      removeQuietly(this.backup);
      return false;
    }
    if ((state.phase === "swapping" || state.phase === "swapped") && this.o.version === to) {
      // The new file runs (a kill may have come between the rename and the state): it has until the deadline.
      const deadline = state.deadline ?? Date.now() + (this.o.deadlineMs ?? UPDATE_DEADLINE_MS);
      this.save({ ...state, phase: "swapped", deadline });
      const timer = setTimeout(() => this.rollBack("not online in time"), Math.max(0, deadline - Date.now()));
      this.pending = { deadline, timer };
      this.log(`${to} started, waiting to come online (from ${from})`);
      return this.o.hold === "new-offline";
    }
    // The old file runs: the swap never happened (swapping), or it was undone (swapped, rolled-back).
    removeQuietly(this.fresh);
    removeQuietly(this.backup);
    const refused = state.phase === "swapping" || !to ? state.refused : [...new Set([...state.refused, to])];
    if (to && state.phase !== "swapping") {
      this.report = { type: "update", state: "failed", version: to, reason: "rolled back" };
      this.log(`${to} did not come online: back on ${this.o.version}, ${to} will not be tried again`);
    } else if (to) {
      this.log(
        `the update to ${to} was interrupted before the swap: ${this.o.version} kept, tried again later`,
      );
    }
    this.save({ phase: null, refused });
    return false;
  }

  attach(client: UpdaterClient): void {
    this.client = client;
  }

  /** The server's release frame (after the hello: it has greeted this process; and at each heartbeat). */
  onRelease(frame: AgentReleaseFrame): void {
    const client = this.client;
    if (!client) return;
    if (this.pending) this.commit();
    if (this.report && client.notify(this.report)) this.report = undefined;
    if (this.updating || !isNewerVersion(frame.version, this.o.version)) return;
    if (!this.o.exe || !this.o.publicKey) {
      if (!this.warnedOff)
        this.log(`${frame.version} is out; this copy does not update itself (not the built executable)`);
      this.warnedOff = true;
      return;
    }
    if (this.load().refused.includes(frame.version) || Date.now() < this.retryAt) return;
    if (!inUpdateWindow(new Date().getHours(), frame.window) || frame.busy || !this.quiet()) return;
    this.updating = true;
    void this.apply(frame.version);
  }

  private quiet(): boolean {
    const { inFlight, lastCallAt } = this.client!.activity();
    return inFlight === 0 && Date.now() - lastCallAt >= (this.o.quietMs ?? UPDATE_QUIET_MS);
  }

  private commit() {
    const pending = this.pending!;
    this.pending = undefined;
    clearTimeout(pending.timer);
    const state = this.load();
    removeQuietly(this.backup);
    this.save({ phase: null, refused: state.refused });
    this.log(`${this.o.version} is online: update done (from ${state.from})`);
    this.client?.notify({
      type: "update",
      state: "done",
      version: this.o.version,
    } satisfies AgentUpdateFrame);
  }

  /** Tests: stops here until killed. */
  private async hold(step: string) {
    if (this.o.hold !== step) return;
    this.log(`held at ${step} (test)`);
    await new Promise(() => undefined);
  }

  private async apply(version: string) {
    const exe = this.o.exe!;
    const client = this.client!;
    client.notify({ type: "update", state: "started", version } satisfies AgentUpdateFrame);
    this.log(`downloading ${version}`);
    const state = this.load();
    try {
      const got = await download(
        new URL(`${AGENT_UPDATE_PATH}/${platformName()}`, this.o.config.server),
        this.o.config.credential,
        client.proxy,
        this.fresh,
      );
      if (got.version !== version) throw new Error(`the server sent ${got.version}, not ${version}`);
      if (!verifyRelease(this.o.publicKey!, { ...got, platform: platformName() })) {
        removeQuietly(this.fresh);
        this.save({ ...state, refused: [...new Set([...state.refused, version])] });
        this.log(
          `${version} refused: its signature is not ours (the file was deleted, ${this.o.version} keeps running)`,
        );
        client.notify({
          type: "update",
          state: "failed",
          version,
          reason: "signature",
        } satisfies AgentUpdateFrame);
        this.updating = false;
        return;
      }
      chmodSync(this.fresh, 0o755);
      await this.hold("downloaded");
      // A call may have come while downloading: never in the middle of a run.
      if (!this.quiet()) {
        removeQuietly(this.fresh);
        this.log(`${version} downloaded, but a call came in: later`);
        this.updating = false;
        return;
      }
      this.save({ phase: "swapping", from: this.o.version, to: version, refused: state.refused });
      // Windows cannot replace a running file, but can rename it; elsewhere the running file stays whole.
      if (process.platform === "win32") renameSync(exe, this.backup);
      else {
        copyFileSync(exe, this.backup);
        flush(this.backup);
      }
      await this.hold("backed-up");
      renameSync(this.fresh, exe);
      const deadline = Date.now() + (this.o.deadlineMs ?? UPDATE_DEADLINE_MS);
      this.save({ phase: "swapped", from: this.o.version, to: version, deadline, refused: state.refused });
      await this.hold("replaced");
      this.log(`${version} in place of ${this.o.version}: restarting`);
      this.restart(true);
    } catch (e) {
      removeQuietly(this.fresh);
      const now = this.load();
      if (now.phase === "swapping") {
        if (!existsSync(exe) && existsSync(this.backup)) renameSync(this.backup, exe);
        removeQuietly(this.backup);
        this.save({ phase: null, refused: now.refused });
      }
      const reason = e instanceof Error ? e.message : String(e);
      this.log(`${version} failed: ${reason}; tried again in ${RETRY_AFTER_MS / 60_000} minutes`);
      client.notify({ type: "update", state: "failed", version, reason } satisfies AgentUpdateFrame);
      this.retryAt = Date.now() + RETRY_AFTER_MS;
      this.updating = false;
    }
  }

  /** The new file did not come online in time: the old one goes back and starts. */
  private rollBack(reason: string) {
    if (this.load().phase !== "swapped") return;
    this.pending = undefined;
    const exe = this.o.exe!;
    const state = this.load();
    this.log(`${state.to} ${reason}: putting ${state.from} back`);
    if (existsSync(this.backup)) {
      if (process.platform === "win32") renameSync(exe, `${exe}.failed`);
      renameSync(this.backup, exe);
    }
    this.save({ ...state, phase: "rolled-back", refused: [...new Set([...state.refused, state.to!])] });
    this.restart(false);
  }

  /**
   * Starts the file now in place. Under a service manager: exit and be restarted. Otherwise the new
   * process is spawned; this one watches until it is online, and puts the old file back if it never is.
   */
  private restart(watch: boolean) {
    this.client?.stop();
    if (this.o.service) {
      setTimeout(() => this.exit(EXIT_RESTART), 200);
      return;
    }
    const child = spawn(this.o.exe!, this.o.args, { detached: true, stdio: "inherit" });
    child.unref();
    if (!watch) {
      setTimeout(() => this.exit(0), 200);
      return;
    }
    const until = (this.load().deadline ?? Date.now()) + 10_000;
    const poll = setInterval(() => {
      const phase = this.load().phase;
      if (phase !== "swapped") {
        clearInterval(poll);
        this.exit(0);
      } else if (Date.now() > until) {
        clearInterval(poll);
        child.kill("SIGKILL");
        this.rollBack("did not come online (its process was stopped)");
      }
    }, 500);
  }
}

/** GET the release file into `file` (hashed as it streams), bounded; the headers name version and signature. */
function download(
  url: URL,
  credential: string,
  agent: HttpAgent | undefined,
  file: string,
): Promise<{ version: string; sha256: string; signature: string }> {
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      url,
      { agent, timeout: 60_000, headers: { authorization: `Bearer ${credential}` } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`download answered HTTP ${res.statusCode}`));
          return;
        }
        const hash = createHash("sha256");
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_UPDATE_BYTES) res.destroy(new Error("the file is larger than an agent can be"));
          hash.update(chunk);
        });
        pipeline(res, createWriteStream(file, { mode: 0o700 }))
          .then(() => {
            flush(file);
            const sha256 = hash.digest("hex");
            const header = (name: string) => String(res.headers[name] ?? "");
            if (header("x-agent-sha256") !== sha256) throw new Error("the file arrived damaged (SHA-256)");
            resolve({ version: header("x-agent-version"), sha256, signature: header("x-agent-signature") });
          })
          .catch(reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error("download timed out")));
    req.on("error", reject);
    req.end();
  });
}
