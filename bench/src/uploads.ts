/**
 * `npm run bench:uploads -w @ep/bench` (issue 33, item 3): the upload probe's three files against the
 * production server (`npm start`'s bundle, on the embedded default or, with DATABASE_URL, a fresh
 * database of that PostgreSQL server): a one-million-row workbook, a 3 GB zip bomb (and one that
 * declares 1 kB), a cell at row 1,048,576, and two ordinary stock files (20,000 and 100,000 rows)
 * that are read and kept. Each file is uploaded alone while one connection asks `/health` in a loop;
 * printed per file: the answer, its time, the server's peak RSS above its RSS before the file
 * (/proc, sampled every 20 ms) and /health's p50 / p99 / max, beside the box's load average.
 *
 * Goals for the probe's files: peak added under 300 MB, /health p99 under 200 ms.
 * The files are made by apps/server/test/xlsx-probes.ts, as in the server's tests.
 * `--strict` exits 1 on a FAIL.
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import pg from "pg";
import { bombWorkbook, farCellWorkbook, stockWorkbook } from "../../apps/server/test/xlsx-probes.ts";
import {
  benchDatabase,
  boxLoad,
  load,
  percentiles,
  printVerdicts,
  RawBody,
  registerCompany,
  request,
  serverLoopDelay,
  startServer,
  type Verdict,
} from "./bench-server.ts";

const GOAL_ADDED_MB = 300;
const GOAL_HEALTH_P99_MS = 200;

/** Resident memory of a process now (kB), from /proc. */
function rssKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

function upload(port: number, token: string, path: string, name: string, content: Buffer) {
  const boundary = "----ep-bench-upload";
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const agent = new http.Agent({ keepAlive: false });
  return request(
    agent,
    port,
    "POST",
    path,
    token,
    new RawBody(payload, `multipart/form-data; boundary=${boundary}`),
  );
}

async function main() {
  const t0 = performance.now();
  const files: { label: string; name: string; content: Buffer; probe: boolean }[] = [
    { label: "one cell at row 1,048,576", name: "uzak.xlsx", content: await farCellWorkbook(), probe: true },
    { label: "1,000,000 rows", name: "milyon.xlsx", content: await stockWorkbook(1_000_000), probe: true },
    { label: "zip bomb, 3 GB", name: "bomba.xlsx", content: await bombWorkbook(3 * 1024 ** 3), probe: true },
    {
      label: "zip bomb, 300 MB declared as 1 kB",
      name: "bomba-yalan.xlsx",
      content: await bombWorkbook(300 * 1024 ** 2, true),
      probe: true,
    },
    {
      label: "ordinary, 20,000 rows",
      name: "stok-20k.xlsx",
      content: await stockWorkbook(20_000),
      probe: false,
    },
    {
      label: "ordinary, 100,000 rows",
      name: "stok-100k.xlsx",
      content: await stockWorkbook(100_000),
      probe: false,
    },
  ];
  console.log(`Made the files in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const database = await benchDatabase();
  const pool = new pg.Pool({ connectionString: database.url, max: 1 });
  const server = await startServer(database.url);
  const pid = server.child.pid as number;
  const verdicts: Verdict[] = [];
  try {
    const company = await registerCompany(server.port, "dosya", 12);
    const {
      rows: [erp],
    } = await pool.query<{ id: number }>(
      `insert into connections (company_id, kind, system_type, credentials_sealed) values ($1, 'erp', 12, 'bench')
       returning id`,
      [company.companyId],
    );
    const path = `/api/settings/file-import/${erp?.id}/stock`;
    console.log(`Server on port ${server.port} (${database.name}); ${boxLoad()}`);
    // Warm-up: the reader's first worker and the route, with a small file.
    const warm = await upload(server.port, company.token, path, "isinma.xlsx", await stockWorkbook(10));
    if (warm.status !== 200) throw new Error(`warm-up upload: ${warm.body}`);

    for (const file of files) {
      await new Promise((r) => setTimeout(r, 500));
      // /health alone just before, for the same moment of the shared machine.
      const idle = percentiles(
        (await load(server.port, "/health", undefined, 1, (_s, at) => performance.now() - at >= 2000))
          .latencies,
      );
      const before = rssKb(pid);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssKb(pid));
      }, 20);
      await serverLoopDelay(server.port);
      let done = false;
      const health = load(server.port, "/health", undefined, 1, () => done);
      const started = performance.now();
      const startedAt = new Date().toISOString().slice(11, 23);
      const answer = await upload(server.port, company.token, path, file.name, file.content);
      const seconds = (performance.now() - started) / 1000;
      done = true;
      const h = await health;
      const loop = await serverLoopDelay(server.port);
      clearInterval(sampler);
      peak = Math.max(peak, rssKb(pid));
      const body = JSON.parse(answer.body) as { message: string; data?: { accepted?: number } };
      const addedMb = (peak - before) / 1024;
      const hp = percentiles(h.latencies);
      console.log(
        `${file.label.padEnd(34)} ${startedAt} ${(file.content.length / 1024 / 1024).toFixed(1).padStart(5)} MB → ${answer.status} ${answer.status === 200 ? `${body.data?.accepted} rows accepted` : `"${body.message}"`}`,
      );
      console.log(
        `${"".padEnd(34)} ${seconds.toFixed(2)} s, peak RSS +${addedMb.toFixed(0)} MB (${(before / 1024).toFixed(0)} → ${(peak / 1024).toFixed(0)} MB), /health p50 ${hp.p50.toFixed(1)} / p99 ${hp.p99.toFixed(1)} / max ${hp.max.toFixed(1)} ms over ${h.latencies.length} calls (idle just before: p50 ${idle.p50.toFixed(1)} / p99 ${idle.p99.toFixed(1)} ms); server event-loop delay p99 ${loop.p99.toFixed(0)} / max ${loop.max.toFixed(0)} ms; ${boxLoad()}`,
      );
      verdicts.push(
        {
          label: `${file.label}: peak RSS added`,
          value: `${addedMb.toFixed(0)} MB`,
          goal: `< ${GOAL_ADDED_MB} MB`,
          pass: addedMb < GOAL_ADDED_MB,
        },
        {
          label: `${file.label}: /health p99`,
          value: `${hp.p99.toFixed(0)} ms`,
          goal: `< ${GOAL_HEALTH_P99_MS} ms`,
          pass: hp.p99 < GOAL_HEALTH_P99_MS,
        },
      );
      if (file.probe && answer.status === 200) throw new Error(`${file.label} was accepted`);
    }
    printVerdicts(verdicts);
  } finally {
    await pool.end();
    await server.stop();
    await database.drop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
