/**
 * What the benches that talk to the production server share: a free port, the server (`npm start`'s
 * bundle) as a child process on a database, companies registered through the API, keep-alive loops
 * of requests from this process, and percentiles. Used by dashboard-history.ts, fairness.ts and
 * uploads.ts.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { createServer } from "node:net";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { startEmbeddedPostgres } from "@ep/server/embedded-postgres";
import { serverDir, serverNodeArgs } from "@ep/server/server-process";
import { freshPostgres } from "./postgres.ts";

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const address = s.address();
      s.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

/** A request body sent as it is, with its content type. */
export class RawBody {
  constructor(
    readonly bytes: Buffer,
    readonly contentType: string,
  ) {}
}

export type Reply = { status: number; body: string; headers: http.IncomingHttpHeaders };

export function request(
  agent: http.Agent,
  port: number,
  method: string,
  path: string,
  token?: string,
  /** JSON, or bytes of their own type (a multipart upload). */
  body?: unknown,
  options: { signal?: AbortSignal } = {},
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const raw = body instanceof RawBody ? body : undefined;
    const payload = raw ? raw.bytes : body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        agent,
        host: "127.0.0.1",
        port,
        method,
        path,
        signal: options.signal,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { "content-type": raw?.contentType ?? "application/json" } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks).toString(),
            headers: res.headers,
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

export function percentiles(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: sorted[sorted.length - 1] ?? 0 };
}

/**
 * People rather than a loop: `users` each ask for `path` every `everyMs` (starting at random
 * offsets) for `seconds`, whatever the answers' pace; a latency counts from the time the call was
 * due, so a server that falls behind shows it (no coordinated omission).
 */
export async function paced(
  port: number,
  path: string,
  token: string | undefined,
  users: number,
  everyMs: number,
  seconds: number,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: users });
  const latencies: number[] = [];
  let failures = 0;
  const startedAt = performance.now();
  const calls: Promise<void>[] = [];
  const user = async () => {
    let due = startedAt + Math.random() * everyMs;
    while (due < startedAt + seconds * 1000) {
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const at = due;
      calls.push(
        request(agent, port, "GET", path, token)
          .catch(() => ({ status: 0 }))
          .then((reply) => {
            latencies.push(performance.now() - at);
            if (reply.status !== 200) failures++;
          }),
      );
      due += everyMs;
    }
  };
  await Promise.all(Array.from({ length: users }, user));
  await Promise.all(calls);
  agent.destroy();
  return { ...percentiles(latencies), latencies, failures };
}

/**
 * `connections` loops sending one request after another (`path` may change per request) until
 * `stop()` says so; each latency and status is kept.
 */
export async function load(
  port: number,
  path: string | ((sent: number) => string),
  token: string | undefined,
  connections: number,
  stop: (sent: number, startedAt: number) => boolean,
) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  let failures = 0;
  const startedAt = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (!stop(sent, startedAt)) {
        const target = typeof path === "string" ? path : path(sent);
        sent++;
        const t0 = performance.now();
        const reply = await request(agent, port, "GET", target, token).catch(() => ({ status: 0 }));
        latencies.push(performance.now() - t0);
        statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        if (reply.status !== 200) failures++;
      }
    }),
  );
  const seconds = (performance.now() - startedAt) / 1000;
  agent.destroy();
  return { ...percentiles(latencies), latencies, rps: latencies.length / seconds, failures, statuses };
}

/** The token the bench's servers take for `/metrics` (METRICS_TOKEN). */
export const METRICS_TOKEN = "ep-bench-metrics";

/** A bench's server process environment: this one's, quiet, no captcha, demo or browser, on `port`. */
export function serverEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(port),
    CAPTCHA: "off",
    DEMO: "0",
    LOG_LEVEL: "warn",
    BROWSER: "none",
    DATA_DIR: dataDir,
    PUBLIC_URL: `http://127.0.0.1:${port}`,
  };
}

/**
 * The server's own event-loop delay since the last call (prom-client's default metrics: a
 * monitorEventLoopDelay histogram, reset at each scrape), in ms. A bench calls it just before and just
 * after a phase: a slow answer the server's loop did not see was the box (or the bench), not the server.
 */
export async function serverLoopDelay(port: number): Promise<{ p99: number; max: number }> {
  const agent = new http.Agent({ keepAlive: false });
  const reply = await request(agent, port, "GET", "/metrics", METRICS_TOKEN);
  const metric = (name: string) =>
    Number(new RegExp(`^${name} ([0-9.e+-]+)`, "m").exec(reply.body)?.[1] ?? Number.NaN) * 1000;
  return { p99: metric("nodejs_eventloop_lag_p99_seconds"), max: metric("nodejs_eventloop_lag_max_seconds") };
}

/** The box's load averages (1, 5, 15 min), printed beside figures: the machine is shared. */
export const boxLoad = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(" / ")}`;

export type BenchDatabase = {
  name: string;
  url: string;
  /** The embedded cluster's postmaster (its process tree is the database's CPU); none on DATABASE_URL's server. */
  postmasterPid?: number;
  drop(): Promise<void>;
};

/** A fresh database on DATABASE_URL's server, or the embedded default's cluster in a temp dir. */
export async function benchDatabase(): Promise<BenchDatabase> {
  const pg = await freshPostgres(process.env.DATABASE_URL);
  if (pg) return { ...pg, name: `PostgreSQL, database ${pg.name}` };
  const dir = mkdtempSync(join(tmpdir(), "ep-bench-db-"));
  const cluster = await startEmbeddedPostgres(join(dir, "postgres"), () => undefined);
  return {
    name: "the embedded default, a PostgreSQL cluster",
    url: cluster.url,
    postmasterPid: cluster.pid,
    async drop() {
      await cluster.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type BenchServer = { port: number; child: ChildProcess; stop(): Promise<void> };

/** Where a server's bundle is and the node arguments that start it (default: this checkout's `npm start`). */
export type ServerCommand = { dir: string; args: string[] };

/**
 * The production server (`npm start`'s bundle) as a child process on `databaseUrl`, once /health
 * answers. BENCH_SERVER_NODE_ARGS: extra node flags for it, e.g. "--cpu-prof --cpu-prof-dir=/tmp/p".
 */
export async function startServer(
  databaseUrl: string,
  env: Record<string, string> = {},
  command: ServerCommand = { dir: serverDir, args: serverNodeArgs("start") },
): Promise<BenchServer> {
  const port = await freePort();
  // The server's own data folder (secrets, uploads): removed when it stops, so no bench leaves one behind.
  const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-server-"));
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(" ").filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, ...command.args], {
    cwd: command.dir,
    env: { ...serverEnv(port, dataDir), DATABASE_URL: databaseUrl, METRICS_TOKEN, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const agent = new http.Agent({ keepAlive: false });
  for (let i = 0; ; i++) {
    const health = await request(agent, port, "GET", "/health").catch(() => undefined);
    if (health?.status === 200) break;
    if (i > 600) {
      child.kill("SIGKILL");
      rmSync(dataDir, { recursive: true, force: true });
      throw new Error("the server did not start within 60 s");
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    child,
    async stop() {
      child.kill("SIGTERM");
      if (child.exitCode === null) await new Promise((r) => child.once("exit", r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A company registered and signed in through the API. */
export async function registerCompany(port: number, name: string, erpType = 9) {
  const agent = new http.Agent({ keepAlive: false });
  const email = `bench.${name}.${Date.now()}@example.com`;
  const password = "Guclu.Parola1";
  const registration = {
    company_Name: `Bench ${name}`,
    email,
    password,
    first_Name: "Bench",
    last_Name: "Kullanıcı",
    phone: "05321234567",
    erpType,
    ecommerceType: 1,
  };
  const reg = await request(agent, port, "POST", "/api/account/register", undefined, registration);
  if (reg.status !== 200) throw new Error(`register: ${reg.body}`);
  const login = await request(agent, port, "POST", "/api/account/login", undefined, { email, password });
  if (login.status !== 200) throw new Error(`login: ${login.body}`);
  return {
    token: JSON.parse(login.body).data.token as string,
    companyId: JSON.parse(reg.body).data.company.id as number,
  };
}

/** A figure against its goal; `pass: null` is printed for information only. */
export type Verdict = { label: string; value: string; goal?: string; pass: boolean | null };

/** The verdicts, one a line; with `--strict` on the command line, a FAIL makes the exit code 1. */
export function printVerdicts(verdicts: Verdict[]) {
  const width = Math.max(...verdicts.map((v) => v.label.length));
  console.log("");
  for (const v of verdicts) {
    const mark = v.pass === null ? "info" : v.pass ? "PASS" : "FAIL";
    console.log(
      `${mark.padEnd(5)} ${v.label.padEnd(width)} ${v.value.padStart(8)}${v.goal ? `  (goal ${v.goal})` : ""}`,
    );
  }
  if (process.argv.includes("--strict") && verdicts.some((v) => v.pass === false)) process.exitCode = 1;
}
