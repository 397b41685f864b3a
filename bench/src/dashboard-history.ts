/**
 * `npm run bench:dashboard -w @ep/bench` (issue 13, item 3): does the panel slow down with history?
 *
 * On PostgreSQL (DATABASE_URL names a server; a fresh database is made there and dropped) or, without
 * DATABASE_URL, on the embedded default (a PostgreSQL cluster in a temp dir, started as the server
 * starts its own, with the same settings), it starts the production server (`npm start`'s bundle) as
 * a child process, registers two companies through the API, gives one of
 * them 100,000 job runs, 100,000 open failed tasks and 100,000 notifications, and then, in one run:
 *
 * - p50 of Dashboard, JobHistory and Notification for the busy company against the empty one
 *   (10 connections; goal: within 1.5×);
 * - requests per second of Dashboard (busy company) against `/health` at 200 connections
 *   (goal: at least 0.3×).
 *
 * Issue 34, item 5 (`BENCH_HISTORY=10000000 BENCH_RUN_SPACING_SECONDS=3 BENCH_RETENTION=1`): ten million
 * runs, one every 3 s (a year of a very busy company), reports kept only for the last 90 days as the
 * retention leaves them; then the retention itself (runs kept 30 days) runs in its batches while the
 * empty company's JobHistory is measured beside it: rows removed per second, and that p50 against the
 * same p50 measured before.
 *
 * Load comes from a bounded loop of keep-alive HTTP requests on loopback from this process.
 * Environment: BENCH_HISTORY (100000), BENCH_SECONDS (8, per throughput figure),
 * BENCH_RUN_SPACING_SECONDS (60), BENCH_RETENTION (0),
 * BENCH_LATENCY_REQUESTS (400 per endpoint and company), BENCH_SERVER_NODE_ARGS (extra node flags
 * for the server child, e.g. `--cpu-prof`). `--strict` exits 1 on a FAIL.
 */
import { DEFAULT_RETENTION } from "@ep/contracts";
import { ensureCompanyJobs } from "@ep/engine";
import { RetentionService } from "@ep/server/retention";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import {
  benchDatabase,
  load,
  percentiles,
  printVerdicts,
  registerCompany,
  startServer,
} from "./bench-server.ts";

const HISTORY = Number(process.env.BENCH_HISTORY ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const LATENCY_REQUESTS = Number(process.env.BENCH_LATENCY_REQUESTS ?? 400);
const RUN_SPACING_SECONDS = Number(process.env.BENCH_RUN_SPACING_SECONDS ?? 60);
const RETENTION = process.env.BENCH_RETENTION === "1";
/** Runs older than this carry no report: the retention's default for run reports empties them. */
const REPORT_DAYS = 90;
const ROUNDS = 4;
const GOAL_P50_RATIO = 1.5;
const GOAL_THROUGHPUT_RATIO = 0.3;

async function main() {
  const database = await benchDatabase();
  const server = await startServer(database.url).catch(async (e) => {
    await database.drop();
    throw e;
  });
  const { port } = server;
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  try {
    const busy = await registerCompany(port, "dolu");
    const empty = await registerCompany(port, "bos");

    // Both get the seven jobs (never due during the bench); only the busy one gets history.
    const t0 = performance.now();
    for (const c of [busy, empty]) {
      await ensureCompanyJobs(drizzle(pool), c.companyId, new Date());
      await pool.query(`update jobs set next_run_at = now() + interval '10 years' where company_id = $1`, [
        c.companyId,
      ]);
    }
    const { rows: jobRows } = await pool.query<{ id: number; type: string; name: string }>(
      "select id, type, name from jobs where company_id = $1 order by id",
      [busy.companyId],
    );
    const ids = jobRows.map((j) => j.id);
    const types = jobRows.map((j) => j.type);
    const names = jobRows.map((j) => j.name);
    await pool.query(
      `insert into job_runs (job_id, company_id, job_type, job_name, trigger, status, created_at, enqueued_at,
         started_at, finished_at, counts, report)
       select ($2::int[])[1 + g % $5], $1, ($3::text[])[1 + g % $5], ($4::text[])[1 + g % $5], 'schedule',
         case when g % 10 = 0 then 'Failed' else 'Succeeded' end,
         now() - g * $7 * interval '1 second', now() - g * $7 * interval '1 second',
         now() - g * $7 * interval '1 second' + interval '1 second', now() - g * $7 * interval '1 second' + interval '20 seconds',
         '{"read":120,"changed":6,"written":6,"failed":0}'::jsonb,
         case when g * $7 < $8 * 86400 then repeat('Rapor satırı: 120 kayıt okundu. ', 30) else '' end
       from generate_series(1, $6) as g`,
      [busy.companyId, ids, types, names, ids.length, HISTORY, RUN_SPACING_SECONDS, REPORT_DAYS],
    );
    await pool.query(
      `insert into job_error_reports (company_id, job_id, job_type, job_run_id, entity_key, error_type, message, payload)
       select $1, ($2::int[])[1 + g % $4], ($3::text[])[1 + g % $4], 0, 'SKU-' || g, 'validation',
         'Ürünün stok değeri geçersiz.', jsonb_build_object('sku', 'SKU-' || g, 'qty', -1)
       from generate_series(1, $5) as g`,
      [busy.companyId, ids, types, ids.length, HISTORY],
    );
    await pool.query(
      `insert into notifications (company_id, type, text, created_at)
       select $1, case when g % 3 = 0 then 'Error' else 'Info' end, 'Stok Güncelleme tamamlandı; ' || g || ' kayıt yazıldı.',
         now() - g * interval '1 minute'
       from generate_series(1, $2) as g`,
      [busy.companyId, HISTORY],
    );
    // What autovacuum does soon after such inserts (insert thresholds, PostgreSQL 13+): statistics
    // for the planner and the visibility map that lets the capped counts read the index only.
    await pool.query("vacuum analyze");
    console.log(
      `Seeded ${HISTORY.toLocaleString("en")} runs, failed tasks and notifications for one company in ${((performance.now() - t0) / 1000).toFixed(1)} s (${database.name}, server process on port ${port}).`,
    );

    const endpoints = [
      ["Dashboard", "/api/Dashboard"],
      ["JobHistory", "/api/JobHistory?pageNumber=1&pageSize=10"],
      ["Notification", "/api/Notification/1/10"],
      ["Notification/count", "/api/Notification/count"],
    ] as const;
    const results: { label: string; value: string; goal: string; pass: boolean }[] = [];
    for (const [label, path] of endpoints) {
      // Warm both up, then measure them back to back.
      for (const c of [empty, busy]) await load(port, path, c.token, 10, (sent) => sent >= 50);
      // Rounds alternate the two companies, so a busy moment of the machine hits both alike.
      const all = { empty: [] as number[], busy: [] as number[] };
      for (let round = 0; round < ROUNDS; round++) {
        for (const [kind, c] of [
          ["empty", empty],
          ["busy", busy],
        ] as const) {
          const run = await load(port, path, c.token, 10, (sent) => sent >= LATENCY_REQUESTS / ROUNDS);
          if (run.failures > 0) throw new Error(`${label}: ${run.failures} requests failed`);
          all[kind].push(...run.latencies);
        }
      }
      const e = percentiles(all.empty);
      const b = percentiles(all.busy);
      const ratio = b.p50 / e.p50;
      console.log(
        `${label.padEnd(19)} p50 ${b.p50.toFixed(2)} ms with history vs ${e.p50.toFixed(2)} ms empty (p99 ${b.p99.toFixed(1)} vs ${e.p99.toFixed(1)} ms, 10 connections)`,
      );
      if (label !== "Notification/count") {
        results.push({
          label: `${label} p50 with ${HISTORY.toLocaleString("en")} rows / empty`,
          value: `${ratio.toFixed(2)}×`,
          goal: `≤ ${GOAL_P50_RATIO}×`,
          pass: ratio <= GOAL_P50_RATIO,
        });
      }
    }

    const until = (_sent: number, startedAt: number) => performance.now() - startedAt >= SECONDS * 1000;
    // Alternated too: /health, Dashboard, /health, Dashboard; each figure sums its two halves.
    const health = { count: 0, seconds: 0, latencies: [] as number[] };
    const dash = { count: 0, seconds: 0, latencies: [] as number[], failures: 0 };
    for (let round = 0; round < 2; round++) {
      await load(port, "/health", undefined, 200, (sent) => sent >= 400);
      const h = await load(port, "/health", undefined, 200, until);
      health.count += h.latencies.length;
      health.seconds += h.latencies.length / h.rps;
      health.latencies.push(...h.latencies);
      await load(port, "/api/Dashboard", busy.token, 200, (sent) => sent >= 400);
      const d = await load(port, "/api/Dashboard", busy.token, 200, until);
      dash.count += d.latencies.length;
      dash.seconds += d.latencies.length / d.rps;
      dash.latencies.push(...d.latencies);
      dash.failures += d.failures;
    }
    const healthRps = health.count / health.seconds;
    const healthP99 = percentiles(health.latencies).p99;
    const dashboard = {
      rps: dash.count / dash.seconds,
      failures: dash.failures,
      ...percentiles(dash.latencies),
    };
    if (dashboard.failures > 0)
      throw new Error(`Dashboard: ${dashboard.failures} requests failed under load`);
    const ratio = dashboard.rps / healthRps;
    console.log(
      `/health             ${healthRps.toFixed(0)} req/s (p99 ${healthP99.toFixed(0)} ms) at 200 connections for 2 × ${SECONDS} s`,
    );
    console.log(
      `Dashboard (history) ${dashboard.rps.toFixed(0)} req/s (p99 ${dashboard.p99.toFixed(0)} ms) at 200 connections for 2 × ${SECONDS} s`,
    );
    results.push({
      label: "Dashboard / health throughput, 200 connections",
      value: `${ratio.toFixed(2)}×`,
      goal: `≥ ${GOAL_THROUGHPUT_RATIO}×`,
      pass: ratio >= GOAL_THROUGHPUT_RATIO,
    });

    if (RETENTION) results.push(await retentionUnderLoad(database.url, port, busy, empty));

    printVerdicts(results);
  } finally {
    await pool.end();
    await server.stop();
    await database.drop();
  }
}

/**
 * The nightly clean-up on the busy company (runs kept 30 days), through the server's own service in
 * this process, while 10 connections ask the empty company's JobHistory (the same table, never cached):
 * its p50 during the clean-up against its p50 just before. The clean-up works in batches so that it never holds the database long.
 */
const HISTORY_PAGE = "/api/JobHistory?pageNumber=1&pageSize=10";

async function retentionUnderLoad(
  url: string,
  port: number,
  busy: { companyId: number },
  empty: { token: string },
): Promise<{ label: string; value: string; goal: string; pass: boolean }> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const db = drizzle(pool);
    await pool.query(
      `insert into company_settings (company_id, key, value) values ($1, 'retention', $2::jsonb)
       on conflict (company_id, key) do update set value = excluded.value`,
      [busy.companyId, JSON.stringify({ ...DEFAULT_RETENTION, runs: 30 })],
    );
    const service = new RetentionService({
      database: { db } as never,
      clock: { now: () => new Date() },
      logger: { info() {} } as never,
    });
    const before = await load(port, HISTORY_PAGE, empty.token, 10, (sent) => sent >= 400);
    let cleaning = true;
    const t0 = performance.now();
    const cleanUp = service.applyCompany(busy.companyId).finally(() => {
      cleaning = false;
    });
    const during: number[] = [];
    while (cleaning) {
      const run = await load(port, HISTORY_PAGE, empty.token, 10, (sent) => !cleaning || sent >= 100);
      during.push(...run.latencies);
    }
    const removed = await cleanUp;
    const seconds = (performance.now() - t0) / 1000;
    const { rows } = await pool.query<{ n: string }>(
      "select count(*) as n from job_runs where company_id = $1",
      [busy.companyId],
    );
    const ratio = percentiles(during).p50 / percentiles(before.latencies).p50;
    console.log(
      `Retention (runs 30 days): removed ${removed.runs?.toLocaleString("en")} runs, emptied ${removed.runReports?.toLocaleString("en")} reports in ${seconds.toFixed(1)} s (${Math.round((removed.runs ?? 0) / seconds).toLocaleString("en")} runs/s); ${Number(rows[0]?.n).toLocaleString("en")} left. Empty company's JobHistory p50 ${percentiles(during).p50.toFixed(2)} ms during vs ${percentiles(before.latencies).p50.toFixed(2)} ms before (${during.length} requests).`,
    );
    return {
      label: "JobHistory p50 during the clean-up / before",
      value: `${ratio.toFixed(2)}×`,
      goal: `≤ ${GOAL_P50_RATIO}×`,
      pass: ratio <= GOAL_P50_RATIO,
    };
  } finally {
    await pool.end();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
