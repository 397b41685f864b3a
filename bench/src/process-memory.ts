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
