/**
 * `npm run bench:long-poll -w @ep/bench`: what open long polls cost everyone else (issue 11,
 * defect 11). GET /api/Dashboard p99 with no long polls, then with BENCH_POLLS open long polls,
 * then with none again, in the same run and with the same run events flowing; the figure is the
 * loaded p99 against the mean of the two idle ones.
 *
 * Processes: the server runs in a child (long-poll-server.ts); this process is the panels (long
 * polls that ask again as soon as they are answered, like the web app) and the measuring client.
 *
 * Environment:
 *   BENCH_POLLS        open long polls (default 1000), spread evenly over the companies
 *   BENCH_COMPANIES    companies holding them (default 10, so 100 each: the per-company cap)
 *   BENCH_SESSIONS     signed-in sessions per company the polls are spread over (default 5)
 *   BENCH_SAMPLES      dashboard requests per phase (default 300; more to fill 30 s, at most 60 s), BENCH_CONCURRENCY at a time (2)
 *   DATABASE_URL       a PostgreSQL server (a fresh database, dropped afterwards); default PGlite
 */
import { randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PRODUCT_AREA_JOB_TYPES } from "@ep/contracts";
import { request as sharedRequest } from "./bench-server.ts";
import { ChildControl } from "./ipc.ts";
import type { EventLoad, LongPollServerReady } from "./long-poll-server.ts";
import { freshPostgres } from "./postgres.ts";

const here = dirname(fileURLToPath(import.meta.url));
const POLLS = Number(process.env.BENCH_POLLS ?? 1000);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 10);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 2);
const PHASE_LIMIT_MS = 60_000;
const PHASE_MIN_MS = 30_000;
const SESSIONS_PER_COMPANY = Number(process.env.BENCH_SESSIONS ?? 5);

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/** The benches' one HTTP helper, with this bench's keep-alive agent and the server's address. */
const request = (
  base: string,
  method: "GET" | "POST",
  path: string,
  options: { token?: string; body?: unknown; signal?: AbortSignal } = {},
) =>
  sharedRequest(agent, Number(new URL(base).port), method, path, options.token, options.body, {
    signal: options.signal,
  });

/** A company and its users' sessions: one per browser, each holding several panel tabs. */
async function signUp(base: string, n: number): Promise<{ tokens: string[]; companyId: number }> {
  const email = `bench.${n}.${randomBytes(3).toString("hex")}@example.com`;
  const password = "Guclu.Parola1";
  const reg = await request(base, "POST", "/api/account/register", {
    body: {
      company_Name: `Bench Firma ${n}`,
      email,
      password,
      first_Name: "Ayşe",
      last_Name: "Yılmaz",
      phone: "05321234567",
      erpType: 9,
      ecommerceType: 1,
    },
  });
  if (reg.status !== 200) throw new Error(`register: ${reg.status} ${reg.body}`);
  const tokens: string[] = [];
  for (let i = 0; i < SESSIONS_PER_COMPANY; i++) {
    const login = await request(base, "POST", "/api/account/login", { body: { email, password } });
    if (login.status !== 200) throw new Error(`login: ${login.status} ${login.body}`);
    tokens.push(JSON.parse(login.body).data.token);
  }
  return { tokens, companyId: JSON.parse(reg.body).data.company.id };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;

/** p50/p95/p99 of `samples` dashboard calls or more (PHASE_MIN_MS), stopping at PHASE_LIMIT_MS. */
async function measureDashboard(base: string, token: string, samples: number) {
  const times: number[] = [];
  let next = 0;
  let unanswered = 0;
  const until = performance.now() + PHASE_LIMIT_MS;
  const least = performance.now() + PHASE_MIN_MS;
  const worker = async () => {
    // At least PHASE_MIN_MS, so a phase spans several wake cycles of the long polls.
    while ((next++ < samples || performance.now() < least) && performance.now() < until) {
      const t = performance.now();
      // A call still unanswered when the phase ends counts with the time it waited, so a
      // starved server shows as such instead of holding the bench.
      const signal = AbortSignal.timeout(Math.max(1, Math.ceil(until - t)));
      const res = await request(base, "GET", "/api/Dashboard", { token, signal }).catch(() => null);
      times.push(performance.now() - t);
      if (!res) {
        unanswered++;
        return;
      }
      if (res.status !== 200) throw new Error(`dashboard: ${res.status} ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  times.sort((a, b) => a - b);
  return {
    n: times.length,
    unanswered,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
  };
}

/** Long polls that ask again at once when answered, and wait as told when refused (the web app). */
function openPolls(base: string, tokens: string[], count: number) {
  const controller = new AbortController();
  // One signal for every poll of the bench: more than the default ten listeners by design.
  setMaxListeners(0, controller.signal);
  const stats = { open: 0, answers: 0, events: 0, refused: 0, failed: 0 };
  const types = PRODUCT_AREA_JOB_TYPES.join(",");
  const loop = async (token: string) => {
    while (!controller.signal.aborted) {
      stats.open++;
      try {
        const res = await request(
          base,
          "GET",
          `/api/JobHistory/do-long-polling?jobTypes=${types}&channelName=bench`,
          {
            token,
            signal: controller.signal,
          },
        );
        if (res.status === 429) {
          stats.refused++;
          await new Promise((r) => setTimeout(r, Number(res.headers["retry-after"] ?? 3) * 1000));
        } else if (res.status === 200) {
          stats.answers++;
          stats.events += (JSON.parse(res.body).data.events as unknown[]).length;
        } else stats.failed++;
      } catch {
        if (!controller.signal.aborted) stats.failed++;
      } finally {
        stats.open--;
      }
    }
  };
  const loops = Array.from({ length: count }, (_, i) => loop(tokens[i % tokens.length]!));
  return {
    stats,
    async close() {
      controller.abort();
      await Promise.allSettled(loops);
    },
  };
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const line = (label: string, value: string) => console.log(`  ${label.padEnd(34)} ${value}`);

async function main() {
  const cleanups: Array<() => Promise<unknown>> = [];
  try {
    const env: Record<string, string> = {};
    const pg = await freshPostgres(process.env.DATABASE_URL);
    if (pg) {
      cleanups.push(() => pg.drop());
      env.BENCH_DATABASE_URL = pg.url;
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-lp-"));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      env.BENCH_DATA_DIR = dataDir;
    }
    console.log(
      `Long-poll bench: ${POLLS} long polls over ${COMPANIES} companies, ${pg ? `PostgreSQL (${pg.name})` : "PGlite"}`,
    );
    const server = await ChildControl.start<LongPollServerReady>(join(here, "long-poll-server.ts"), env);
    cleanups.push(() => server.stop());
    const base = server.ready.url;
    const companies: Array<{ tokens: string[]; companyId: number }> = [];
    let t0 = performance.now();
    for (let i = 0; i < COMPANIES; i++) companies.push(await signUp(base, i));
    const since = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
    const tokens = companies.flatMap((c) => c.tokens);
    console.log(`  ${COMPANIES} companies, ${tokens.length} sessions signed in, in ${since()}`);
    const load: EventLoad = {
      companyIds: companies.map((c) => c.companyId),
      jobTypes: ["StockIntegration", "PriceIntegration"],
    };
    await server.call("startEvents", load);
    console.log(`  run events: ${load.jobTypes.length} runs per company, progress every 750 ms`);
    const measuring = tokens[0]!;
    await measureDashboard(base, measuring, 50); // warm-up

    t0 = performance.now();
    const idle1 = await measureDashboard(base, measuring, SAMPLES);
    console.log(`  phase 1, no long polls: ${idle1.n} calls in ${since()}`);
    const polls = openPolls(base, tokens, POLLS);
    await new Promise((r) => setTimeout(r, 3000));
    const before = { ...polls.stats };
    const t = performance.now();
    const loaded = await measureDashboard(base, measuring, SAMPLES);
    const seconds = (performance.now() - t) / 1000;
    console.log(`  phase 2, ${POLLS} long polls: ${loaded.n} calls in ${seconds.toFixed(1)} s`);
    const during = {
      open: polls.stats.open,
      answers: polls.stats.answers - before.answers,
      refused: polls.stats.refused - before.refused,
      failed: polls.stats.failed - before.failed,
    };
    await polls.close();
    await new Promise((r) => setTimeout(r, 2000));
    t0 = performance.now();
    const idle2 = await measureDashboard(base, measuring, SAMPLES);
    console.log(`  phase 3, no long polls again: ${idle2.n} calls in ${since()}`);
    const published = await server.call<number>("stopEvents");

    const idleP99 = (idle1.p99 + idle2.p99) / 2;
    console.log("GET /api/Dashboard (p50 / p95 / p99):");
    const row = (r: typeof idle1) =>
      `${ms(r.p50)} / ${ms(r.p95)} / ${ms(r.p99)}  (${r.n} calls${r.unanswered ? `, ${r.unanswered} unanswered at the phase's end` : ""})`;
    line("no long polls", row(idle1));
    line(`${POLLS} long polls`, row(loaded));
    line("no long polls again", row(idle2));
    console.log("Long polls while measuring:");
    line("open at the end", String(during.open));
    line("answered per second", (during.answers / seconds).toFixed(0));
    line("refused (cap) / failed", `${during.refused} / ${during.failed}`);
    line("run events published", String(published));
    console.log(`Ratio p99 loaded / idle: ${(loaded.p99 / idleP99).toFixed(2)}× (goal ≤ 1.3×)`);
  } finally {
    for (const c of cleanups.reverse()) await c().catch((e) => console.error("cleanup:", e));
    agent.destroy();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
