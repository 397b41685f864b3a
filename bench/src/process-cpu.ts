/** CPU seconds from Linux /proc: of a process, of a process tree, of the whole box. */
import { readdirSync, readFileSync } from "node:fs";
import { descendants } from "./process-memory.ts";

const CLOCK_TICKS = 100;

function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** utime + stime of a process, in seconds. */
export function cpuSeconds(pid: number): number {
  const f = statFields(pid);
  return (Number(f[11]) + Number(f[12])) / CLOCK_TICKS;
}

/**
 * A process tree's CPU seconds: every live process under `root`, plus what the root's reaped children
 * used (cutime + cstime). PostgreSQL starts a process per connection, so this counts them all.
 */
export function treeCpuSeconds(root: number): number {
  let ticks = 0;
  for (const pid of descendants([root])) {
    try {
      const f = statFields(pid);
      ticks += Number(f[11]) + Number(f[12]);
      if (pid === root) ticks += Number(f[13]) + Number(f[14]);
    } catch {
      // exited between the listing and the read: its time is in its parent's cutime
    }
  }
  return ticks / CLOCK_TICKS;
}

const isPostgres = (pid: string) => readFileSync(`/proc/${pid}/stat`, "utf8").includes("(postgres)");

/** The PostgreSQL postmaster on this machine (a `postgres` process whose parent is not one), if any. */
export function postmasterPid(): number | undefined {
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (!isPostgres(name)) continue;
      if (!isPostgres(statFields(Number(name))[1]!)) return Number(name);
    } catch {
      // gone
    }
  }
  return undefined;
}

/** The box's busy and total CPU seconds since boot, over every core (/proc/stat). */
export function boxCpuSeconds(): { busy: number; total: number } {
  const line = readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const [user, nice, system, idle, iowait, irq, softirq, steal] = line.split(/\s+/).slice(1).map(Number);
  const busy = user! + nice! + system! + irq! + softirq! + steal!;
  return { busy: busy / CLOCK_TICKS, total: (busy + idle! + iowait!) / CLOCK_TICKS };
}
