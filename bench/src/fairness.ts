/**
 * `npm run bench:fairness -w @ep/bench` (issue 33, item 4): does one company's load slow another's
 * panel? On the embedded default (a PostgreSQL cluster in a temp dir) or, with DATABASE_URL, on a
 * fresh database of that PostgreSQL server, it starts the production server (`npm start`'s bundle),
 * registers two companies (both with their jobs and 2,000 runs of history; the noisy one with 5,000
 * orders) and measures the quiet company's Dashboard (2 connections) in rounds of three phases:
 *
 * - alone (the baseline of the same round, so a busy moment of the shared machine hits both);
 * - while the noisy company sends 32 concurrent requests (Dashboard, JobHistory, Notification);
 * - while the noisy company runs 8 concurrent sales exports;
 *
 * in each phase first as two connections calling in a loop, then as people (`paced`).
 *
 * Goal: the quiet company's Dashboard p99 under the 32 requests at most 2× its baseline. The whole
 * run is made twice, with the fairness plugin and with FAIRNESS=off (the server as it was), and the
 * box's load average is printed beside each figure. Environment: BENCH_SECONDS (5, per phase),
 * BENCH_ROUNDS (2), BENCH_FAIRNESS (on,off). `--strict` exits 1 on a FAIL.
 */
import { ensureCompanyJobs } from "@ep/engine";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import {
  benchDatabase,
  boxLoad,
  load,
  paced,
  percentiles,
  printVerdicts,
  registerCompany,
  serverLoopDelay,
  startServer,
  type Verdict,
} from "./bench-server.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const GOAL_P99_RATIO = 2;
/**
 * The quiet company is measured twice per phase: as two connections calling in a loop (thousands of
 * calls a second: a second busy company, the original measure), then as people, PEOPLE of them each
 * opening the Dashboard every PEOPLE_EVERY_MS, latency counted from when the call was due.
 */
const PEOPLE = 8;
const PEOPLE_EVERY_MS = 500;

type Company = { token: string; companyId: number };

async function seed(pool: pg.Pool, companies: Company[], noisy: Company) {
  for (const c of companies) {
    await ensureCompanyJobs(drizzle(pool), c.companyId, new Date());
    await pool.query(`update jobs set next_run_at = now() + interval '10 years' where company_id = $1`, [
      c.companyId,
    ]);
    await pool.query(
      `insert into job_runs (job_id, company_id, job_type, job_name, trigger, status, created_at, enqueued_at,
         started_at, finished_at, counts, report)
       select j.id, $1, j.type, j.name, 'schedule', case when g % 10 = 0 then 'Failed' else 'Succeeded' end,
         now() - g * interval '1 minute', now() - g * interval '1 minute', now() - g * interval '1 minute',
         now() - g * interval '1 minute' + interval '20 seconds', '{"read":120,"changed":6,"written":6,"failed":0}'::jsonb,
         'Rapor satırı: 120 kayıt okundu.'
       from generate_series(1, 2000) as g
       join lateral (select id, type, name from jobs where company_id = $1 order by id offset (g % 7) limit 1) j on true`,
      [c.companyId],
    );
  }
  const {
    rows: [shop],
  } = await pool.query<{ id: number }>(
    `insert into connections (company_id, kind, system_type, credentials_sealed) values ($1, 'shop', 1, 'bench')
     returning id`,
    [noisy.companyId],
  );
  await pool.query(
    `insert into order_ledger (company_id, shop_connection_id, order_no, shop_order_id, order_date, grand_total,
       state, payload)
     select $1, $2, 'B-' || g, 'B-' || g, now() - g * interval '1 hour', 50 + (g * 7919 % 500000) / 100.0,
       'confirmed', '{"customer":{"firstName":"Ayşe","lastName":"Yılmaz"}}'::jsonb
     from generate_series(1, 5000) as g`,
    [noisy.companyId, shop?.id],
  );
  await pool.query("vacuum analyze");
}

type Phase = "alone" | "32 requests" | "8 exports";

async function measure(port: number, quiet: Company, noisy: Company) {
  const latencies: Record<Phase, number[]> = { alone: [], "32 requests": [], "8 exports": [] };
  const people: Record<Phase, number[]> = { alone: [], "32 requests": [], "8 exports": [] };
  const noise: Record<Phase, { rps: number; statuses: Map<number, number> }[]> = {
    alone: [],
    "32 requests": [],
    "8 exports": [],
  };
  const loads: Record<Phase, string[]> = { alone: [], "32 requests": [], "8 exports": [] };
  const loops: Record<Phase, number[]> = { alone: [], "32 requests": [], "8 exports": [] };
  const noisyPaths = ["/api/Dashboard", "/api/JobHistory?pageNumber=1&pageSize=10", "/api/Notification/1/10"];
  // Warm-up: both companies' pages, one export.
  await load(port, "/api/Dashboard", quiet.token, 2, (sent) => sent >= 50);
  await load(
    port,
    (i) => noisyPaths[i % 3] as string,
    noisy.token,
    4,
    (sent) => sent >= 60,
  );
  await load(port, "/api/SalesReport/export", noisy.token, 1, (sent) => sent >= 1);
  for (let round = 0; round < ROUNDS; round++) {
    for (const phase of ["alone", "32 requests", "8 exports"] as const) {
      let done = false;
      const until = (_sent: number, startedAt: number) => performance.now() - startedAt >= SECONDS * 1000;
      const background =
        phase === "alone"
          ? Promise.resolve(undefined)
          : phase === "32 requests"
            ? load(
                port,
                (i) => noisyPaths[i % 3] as string,
                noisy.token,
                32,
                () => done,
              )
            : load(port, "/api/SalesReport/export", noisy.token, 8, () => done);
      // Let the noise reach its pace before measuring.
      if (phase !== "alone") await new Promise((r) => setTimeout(r, 500));
      await serverLoopDelay(port);
      const run = await load(port, "/api/Dashboard", quiet.token, 2, until);
      const users = await paced(port, "/api/Dashboard", quiet.token, PEOPLE, PEOPLE_EVERY_MS, SECONDS);
      loops[phase].push((await serverLoopDelay(port)).max);
      done = true;
      if (users.failures > 0)
        throw new Error(`quiet Dashboard (people): ${users.failures} failed (${phase})`);
      people[phase].push(...users.latencies);
      const n = await background;
      if (run.failures > 0) throw new Error(`quiet Dashboard: ${run.failures} failed (${phase})`);
      latencies[phase].push(...run.latencies);
      loads[phase].push(boxLoad());
      if (n) noise[phase].push({ rps: n.rps, statuses: n.statuses });
    }
  }
  return { latencies, people, noise, loads, loops };
}

async function main() {
  const database = await benchDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  const verdicts: Verdict[] = [];
  try {
    // BENCH_FAIRNESS=on: without the run of the server as it was.
    const modes = (process.env.BENCH_FAIRNESS ?? "on,off").split(",") as ("on" | "off")[];
    for (const fairness of modes) {
      const server = await startServer(database.url, { FAIRNESS: fairness });
      try {
        const quiet = await registerCompany(server.port, `sessiz-${fairness}`);
        const noisy = await registerCompany(server.port, `yogun-${fairness}`);
        await seed(pool, [quiet, noisy], noisy);
        console.log(`\nFairness ${fairness} (${database.name}, server on port ${server.port}), ${boxLoad()}`);
        const { latencies, people, noise, loads, loops } = await measure(server.port, quiet, noisy);
        const base = percentiles(latencies.alone);
        for (const phase of ["alone", "32 requests", "8 exports"] as const) {
          const p = percentiles(latencies[phase]);
          const rps = noise[phase].reduce((s, x) => s + x.rps, 0) / Math.max(1, noise[phase].length);
          const statuses = new Map<number, number>();
          for (const x of noise[phase])
            for (const [k, v] of x.statuses) statuses.set(k, (statuses.get(k) ?? 0) + v);
          console.log(
            `  quiet Dashboard, ${phase.padEnd(11)} p50 ${p.p50.toFixed(1).padStart(6)} ms  p99 ${p.p99.toFixed(1).padStart(6)} ms  (${latencies[phase].length} calls)` +
              (phase === "alone"
                ? ""
                : `  p99 ${(p.p99 / base.p99).toFixed(2)}× / p50 ${(p.p50 / base.p50).toFixed(2)}× alone; noisy company ${rps.toFixed(0)} req/s, statuses ${JSON.stringify(Object.fromEntries(statuses))}`) +
              `  server event-loop delay max ${loops[phase].map((m) => m.toFixed(0)).join(" / ")} ms  [${loads[phase].join("; ")}]`,
          );
          if (phase !== "alone") {
            const ratio = p.p99 / base.p99;
            verdicts.push({
              label: `fairness ${fairness}: quiet Dashboard p99 with ${phase} / alone`,
              value: `${ratio.toFixed(2)}×`,
              ...(fairness === "on" && phase === "32 requests"
                ? { goal: `≤ ${GOAL_P99_RATIO}×`, pass: ratio <= GOAL_P99_RATIO }
                : { pass: null }),
            });
          }
        }
        const peopleBase = percentiles(people.alone);
        for (const phase of ["alone", "32 requests", "8 exports"] as const) {
          const p = percentiles(people[phase]);
          console.log(
            `  ${PEOPLE} people's Dashboard, ${phase.padEnd(11)} p50 ${p.p50.toFixed(1).padStart(6)} ms  p99 ${p.p99.toFixed(1).padStart(6)} ms  (${people[phase].length} calls)` +
              (phase === "alone"
                ? ""
                : `  p99 ${(p.p99 / peopleBase.p99).toFixed(2)}× / p50 ${(p.p50 / peopleBase.p50).toFixed(2)}× alone`),
          );
          if (phase !== "alone") {
            const ratio = p.p99 / peopleBase.p99;
            verdicts.push({
              label: `fairness ${fairness}: ${PEOPLE} people's Dashboard p99 with ${phase} / alone`,
              value: `${ratio.toFixed(2)}×`,
              ...(fairness === "on" && phase === "32 requests"
                ? { goal: `≤ ${GOAL_P99_RATIO}×`, pass: ratio <= GOAL_P99_RATIO }
                : { pass: null }),
            });
          }
        }
      } finally {
        await server.stop();
      }
    }
    printVerdicts(verdicts);
  } finally {
    await pool.end();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
