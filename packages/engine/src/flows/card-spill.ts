import { type FileHandle, mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SpillLimits = {
  /** Records held in memory; one more and the listing goes to disk. */
  holdAt: number;
  /** Files a spilled listing is spread over by its group key: memory is about a 1/partitions share. */
  partitions: number;
  /** Bytes waiting per file before they are written. */
  flushBytes: number;
};

/**
 * A 100,000-card catalogue held whole cost about 2 MB per 1,000 cards (issue 34), and a first sync
 * of 1,000,000 would not fit the server's 300 MB. Up to 20,000 cards stay in memory; past that each
 * partition holds about 1/128th of the catalogue.
 */
export const SPILL_DEFAULTS: SpillLimits = { holdAt: 20_000, partitions: 128, flushBytes: 64 * 1024 };

/** FNV-1a: a stable, cheap spread of group keys over the partitions. */
function partitionOf(key: string, partitions: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % partitions;
}

/**
 * Records that must be seen together by a group key (an ERP model's cards may lie on any page of
 * the listing), in bounded memory: held while few, otherwise appended as JSON lines to one file per
 * partition, a group's records always to the same file, and read back a file at a time, in the
 * order they were read. The folder is private to the run and removed by `close`.
 */
export class GroupSpill<T> {
  private held: T[] = [];
  private dir: string | undefined;
  private files: FileHandle[] = [];
  private pending: string[][] = [];
  private pendingBytes: number[] = [];

  constructor(
    private readonly groupOf: (record: T) => string,
    private readonly limits: SpillLimits = SPILL_DEFAULTS,
  ) {}

  /** Whether the records went to disk (for the run's tallies and tests). */
  get spilled(): boolean {
    return this.dir !== undefined;
  }

  async add(records: readonly T[]): Promise<void> {
    if (!this.dir) {
      this.held.push(...records);
      if (this.held.length <= this.limits.holdAt) return;
      this.dir = await mkdtemp(join(tmpdir(), "ep-cards-"));
      for (let p = 0; p < this.limits.partitions; p++) {
        this.files.push(await open(join(this.dir, `${p}.jsonl`), "a", 0o600));
        this.pending.push([]);
        this.pendingBytes.push(0);
      }
      records = this.held;
      this.held = [];
    }
    for (const record of records) {
      const p = partitionOf(this.groupOf(record), this.limits.partitions);
      const line = `${JSON.stringify(record)}\n`;
      (this.pending[p] as string[]).push(line);
      this.pendingBytes[p] = (this.pendingBytes[p] as number) + line.length;
      if ((this.pendingBytes[p] as number) >= this.limits.flushBytes) await this.flush(p);
    }
  }

  /** The records group by group: everything held at once, or one partition at a time. */
  async *groups(): AsyncGenerator<T[]> {
    if (!this.dir) {
      yield this.held;
      return;
    }
    for (let p = 0; p < this.files.length; p++) await this.flush(p);
    for (let p = 0; p < this.files.length; p++) {
      const text = await readFile(join(this.dir, `${p}.jsonl`), "utf8");
      if (text.length === 0) continue;
      yield text
        .split("\n")
        .filter((line) => line.length > 0)
        .map((line) => JSON.parse(line) as T);
    }
  }

  async close(): Promise<void> {
    const dir = this.dir;
    this.held = [];
    await Promise.all(this.files.map((f) => f.close().catch(() => undefined)));
    this.files = [];
    if (dir) await rm(dir, { recursive: true, force: true });
  }

  private async flush(p: number): Promise<void> {
    const lines = this.pending[p] as string[];
    if (lines.length === 0) return;
    this.pending[p] = [];
    this.pendingBytes[p] = 0;
    await (this.files[p] as FileHandle).write(lines.join(""));
  }
}
