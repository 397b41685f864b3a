/** Memory of a group of processes from Linux /proc: a server and what it runs (an embedded cluster). */
import { readdirSync, readFileSync } from "node:fs";

/** Every process under `pids` (themselves included), from /proc. */
export function descendants(pids: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
    } catch {
      // gone
    }
  }
  const all = new Set<number>();
  const walk = (pid: number) => {
    if (all.has(pid)) return;
    all.add(pid);
    for (const c of children.get(pid) ?? []) walk(c);
  };
  for (const p of pids) walk(p);
  return [...all];
}

/** Sum of PSS and of RSS (kB) of those processes and their descendants, but not of `exclude`. */
export function memoryOf(pids: number[], exclude: number[] = []): { pss: number; rss: number } {
  let pss = 0;
  let rss = 0;
  for (const pid of descendants(pids)) {
    if (exclude.includes(pid)) continue;
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      pss += Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
      rss += Number(/^Rss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return { pss, rss };
}

export type ProcessMemory = {
  pid: number;
  /** `node`, or PostgreSQL's own title (`postgres: checkpointer`, `postgres: postgres postgres 127.0.0.1(…) idle`). */
  name: string;
  pss: number;
  rss: number;
  /** PSS split (kB): private/anonymous memory (heaps), mapped files (binaries, libraries), shared memory. */
  anon: number;
  file: number;
  shmem: number;
};

/** Per-process PSS and its split, kB, for those processes and their descendants. */
export function memoryByProcess(pids: number[]): ProcessMemory[] {
  const out: ProcessMemory[] = [];
  for (const pid of descendants(pids)) {
    try {
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, "m").exec(rollup)?.[1] ?? 0);
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      const name = cmdline[0]?.startsWith("postgres:")
        ? cmdline[0]
        : (cmdline[0] ?? "").split("/").pop() || "?";
      out.push({
        pid,
        name,
        pss: kb("Pss"),
        rss: kb("Rss"),
        anon: kb("Pss_Anon"),
        file: kb("Pss_File"),
        shmem: kb("Pss_Shmem"),
      });
    } catch {
      // gone
    }
  }
  return out;
}

/** What heap-probe.mjs writes from inside a node process (bytes). */
export type HeapProbe = {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Committed size of each V8 space (new, old, code, large objects …). */
  spaces: Record<string, number>;
  /** Bytecode and machine code with their metadata, and the source text V8 keeps outside its heap. */
  code: { bytecode: number; code: number; scriptSource: number };
};
