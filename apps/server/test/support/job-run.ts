import type { FastifyInstance } from "fastify";
import { call } from "../harness.ts";

/** Waits until run `runId` has ended (neither queued nor running) and answers its report. */
export async function waitForRun(app: FastifyInstance, token: string, runId: number, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(app, "GET", `/api/JobHistory/report/${runId}`, { token });
    const run = res.body.data;
    if (run && run.status !== "Queued" && run.status !== "Running") return run;
    if (Date.now() > until) throw new Error(`run ${runId} still ${run?.status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts job `jobId` through the job API and waits for its run's end. A targeted stock run (an order
 * on another channel starts one) may hold the job: 409 until it ends, so a 409 is tried again.
 */
export async function runJobById(app: FastifyInstance, token: string, jobId: number, timeoutMs = 120_000) {
  const until = Date.now() + timeoutMs;
  let started = await call(app, "POST", `/api/Job/run-job?jobId=${jobId}`, { token });
  while (started.status === 409 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    started = await call(app, "POST", `/api/Job/run-job?jobId=${jobId}`, { token });
  }
  if (started.status !== 200) throw new Error(`run-job ${jobId}: ${JSON.stringify(started.body)}`);
  return waitForRun(app, token, started.body.data.runId as number, timeoutMs);
}

/** Runs the company's (first) job of `type` through the job API to its end. */
export async function runJobOfType(app: FastifyInstance, token: string, type: string, timeoutMs = 120_000) {
  const jobs = await call(app, "GET", `/api/Job/type-filter/${type}`, { token });
  return runJobById(app, token, jobs.body.data[0].id as number, timeoutMs);
}
