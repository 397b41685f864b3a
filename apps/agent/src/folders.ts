/**
 * The watched folders: each new or changed Excel / CSV / XML file, once it is stable (same size and time
 * on two looks a moment apart), goes to the server whole; the server checks it row by row and keeps it
 * once per content hash. The answer moves the file to `islenen/` (processed) or `hatali/` (rejected) next
 * to it, with a per-row result `.sonuc.csv`. A file whose answer never came (the agent stopped, the
 * connection dropped) is still in the folder and is sent again: the server answers the earlier import.
 * Orders files the server hands over are written into the folders' outbox.
 */

import { createHash, randomUUID } from "node:crypto";
import {
  existsSync,
  type FSWatcher,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  watch,
  writeFileSync,
} from "node:fs";
import { basename, extname, join } from "node:path";
import {
  AGENT_FILE_MAX_BYTES,
  type AgentFileFrame,
  type AgentFileOutDoneFrame,
  type AgentFileOutFrame,
  type AgentFileResultFrame,
  type AgentFolderStatus,
  type AgentFoldersFrame,
  message,
} from "@ep/contracts";
import { stringify } from "csv-stringify/sync";
import type { AgentFolder, AgentStore } from "./store.ts";

export const PROCESSED_DIR = "islenen";
export const REJECTED_DIR = "hatali";
const EXTENSIONS = new Set([".xlsx", ".csv", ".txt", ".xml"]);

export type FolderWatcherOptions = {
  /** The periodic scan (fs.watch misses events on network shares). */
  scanMs?: number;
  /** How long a file must keep its size and time before it is read. */
  stableMs?: number;
};

type Seen = { size: number; mtimeMs: number; since: number };
type InFlight = { id: string; folder: AgentFolder; file: string; size: number; mtimeMs: number; at: number };
/** An answer that never came on a live connection (a server error): the file goes again after this. */
const ANSWER_WAIT_MS = 5 * 60_000;

export class FolderWatcher {
  private folders: AgentFolder[] = [];
  private readonly watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private soon: NodeJS.Timeout | undefined;
  private readonly seen = new Map<string, Seen>();
  /** Sent and waiting for the server's answer, by frame id. */
  private readonly inFlight = new Map<string, InFlight>();
  private readonly status = new Map<string, AgentFolderStatus>();
  private scanning = false;

  constructor(
    private readonly store: AgentStore,
    /** Sends a frame on the open connection; false when there is none (the file waits). */
    private readonly send: (frame: AgentFileFrame | AgentFoldersFrame | AgentFileOutDoneFrame) => boolean,
    private readonly options: FolderWatcherOptions = {},
  ) {}

  start(): void {
    this.folders = this.store.loadFolders();
    for (const folder of this.folders) {
      this.status.set(folder.path, {
        path: folder.path,
        kind: folder.kind,
        outbox: folder.outbox,
        readable: existsSync(folder.path),
        lastFile: null,
        lastResult: null,
        lastAt: null,
      });
      try {
        const w = watch(folder.path, () => this.scanSoon());
        w.on("error", () => undefined);
        this.watchers.push(w);
      } catch {
        // Not watchable (missing, network share): the periodic scan still looks.
      }
    }
    if (this.folders.length === 0) return;
    this.timer = setInterval(() => void this.scan(), this.options.scanMs ?? 2000);
    this.timer.unref?.();
  }

  stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.soon);
    for (const w of this.watchers.splice(0)) w.close();
  }

  /** The connection is up: report the folders, and look at once. */
  connected(): void {
    this.reportFolders();
    void this.scan();
  }

  /** The connection dropped: answers to what was sent will not come; those files go again. */
  disconnected(): void {
    this.inFlight.clear();
  }

  private reportFolders() {
    if (this.folders.length === 0) return;
    this.send({ type: "folders", folders: [...this.status.values()] });
  }

  private scanSoon() {
    clearTimeout(this.soon);
    this.soon = setTimeout(() => void this.scan(), this.options.stableMs ?? 500);
  }

  /** One look at every folder: stable files not yet sent are sent. */
  async scan(): Promise<void> {
    if (this.scanning) return;
    this.scanning = true;
    try {
      const now = Date.now();
      const stableMs = this.options.stableMs ?? 500;
      let changed = false;
      for (const [id, f] of this.inFlight) if (now - f.at > ANSWER_WAIT_MS) this.inFlight.delete(id);
      for (const folder of this.folders) {
        let names: string[];
        try {
          names = readdirSync(folder.path);
        } catch {
          changed = this.setStatus(folder, { readable: false }) || changed;
          continue;
        }
        changed = this.setStatus(folder, { readable: true }) || changed;
        for (const name of names.sort()) {
          if (!EXTENSIONS.has(extname(name).toLowerCase()) || name.endsWith(".sonuc.csv")) continue;
          if (name.startsWith("~$") || name.startsWith(".")) continue;
          const file = join(folder.path, name);
          let st: ReturnType<typeof statSync>;
          try {
            st = statSync(file);
          } catch {
            continue;
          }
          if (!st.isFile()) continue;
          const before = this.seen.get(file);
          if (!before || before.size !== st.size || before.mtimeMs !== st.mtimeMs) {
            this.seen.set(file, { size: st.size, mtimeMs: st.mtimeMs, since: now });
            this.scanSoon();
            continue;
          }
          if (now - before.since < stableMs) {
            this.scanSoon();
            continue;
          }
          if ([...this.inFlight.values()].some((f) => f.file === file)) continue;
          try {
            this.sendFile(folder, file, st.size, st.mtimeMs);
          } catch (e) {
            // Gone or locked between the look and the read: the next scan looks again.
            this.store.log(`${name}: not sent (${e instanceof Error ? e.message : String(e)})`);
          }
        }
      }
      if (changed) this.reportFolders();
    } finally {
      this.scanning = false;
    }
  }

  private sendFile(folder: AgentFolder, file: string, size: number, mtimeMs: number) {
    if (size > AGENT_FILE_MAX_BYTES) {
      this.finish(folder, file, REJECTED_DIR, [], message("fileExchange.tooLarge"));
      return;
    }
    const content = readFileSync(file);
    const frame: AgentFileFrame = {
      type: "file-import",
      id: randomUUID(),
      kind: folder.kind,
      name: basename(file),
      sha256: createHash("sha256").update(content).digest("hex"),
      content: content.toString("base64"),
    };
    this.store.log(`sending ${basename(file)} (${folder.kind}, ${content.length} bytes, ${frame.sha256})`);
    if (this.send(frame))
      this.inFlight.set(frame.id, { id: frame.id, folder, file, size, mtimeMs, at: Date.now() });
  }

  /** The server's per-row answer: the file moves out of the folder with its result beside it. */
  onResult(frame: AgentFileResultFrame): void {
    const sent = this.inFlight.get(frame.id);
    if (!sent) return;
    this.inFlight.delete(frame.id);
    // Changed since it was read: the new content goes next, the old answer is for the old content.
    try {
      const st = statSync(sent.file);
      if (st.size !== sent.size || st.mtimeMs !== sent.mtimeMs) return;
    } catch {
      return;
    }
    const ok = frame.status === "imported" || frame.status === "duplicate";
    const summary =
      frame.message ?? `${frame.status}: ${frame.accepted} kabul, ${frame.rejected} red (#${frame.importId})`;
    try {
      this.finish(sent.folder, sent.file, ok ? PROCESSED_DIR : REJECTED_DIR, frame.rows, summary);
      this.store.log(`${basename(sent.file)}: ${summary}`);
    } catch (e) {
      // Could not move it (locked, removed): it stays and goes again; the server answers the same import.
      this.store.log(
        `${basename(sent.file)}: ${summary}; not moved (${e instanceof Error ? e.message : String(e)})`,
      );
    }
  }

  private finish(
    folder: AgentFolder,
    file: string,
    dir: string,
    rows: AgentFileResultFrame["rows"],
    summary: string,
  ) {
    const target = join(folder.path, dir);
    mkdirSync(target, { recursive: true });
    let name = basename(file);
    if (existsSync(join(target, name))) name = `${new Date().toISOString().replace(/[:.]/g, "-")}-${name}`;
    const records = rows.length
      ? rows.map((r) => ({
          satir: r.row,
          anahtar: r.key,
          sonuc: r.accepted ? "kabul" : "red",
          nedenler: r.reasons.join(" "),
        }))
      : [{ satir: "", anahtar: "", sonuc: "red", nedenler: summary }];
    writeFileSync(
      join(target, `${name}.sonuc.csv`),
      `\uFEFF${stringify(records, { header: true, delimiter: ";" })}`,
    );
    renameSync(file, join(target, name));
    this.seen.delete(file);
    this.setStatus(folder, {
      lastFile: basename(file),
      lastResult: summary,
      lastAt: new Date().toISOString(),
    });
    this.reportFolders();
  }

  private setStatus(folder: AgentFolder, patch: Partial<AgentFolderStatus>): boolean {
    const cur = this.status.get(folder.path);
    if (!cur) return false;
    const next = { ...cur, ...patch };
    const changed = JSON.stringify(next) !== JSON.stringify(cur);
    this.status.set(folder.path, next);
    return changed;
  }

  /** An orders file for the outbox folders (each folder's outbox once); the server marks it delivered. */
  onFileOut(frame: AgentFileOutFrame): void {
    const outboxes = [...new Set(this.folders.map((f) => f.outbox).filter((o): o is string => Boolean(o)))];
    let error: string | null = outboxes.length ? null : "no outbox";
    for (const outbox of outboxes) {
      try {
        mkdirSync(outbox, { recursive: true });
        const name = basename(frame.name);
        // Written beside and renamed: the merchant's system never reads half a file.
        const temp = join(outbox, `.${name}.part`);
        writeFileSync(temp, Buffer.from(frame.content, "base64"));
        renameSync(temp, join(outbox, name));
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    this.store.log(`orders file ${frame.name}: ${error ?? "in the outbox"}`);
    this.send({ type: "file-out-done", id: frame.id, exportId: frame.exportId, ok: !error, message: error });
  }
}
