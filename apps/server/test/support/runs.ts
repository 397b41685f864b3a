import type { FastifyInstance } from "fastify";
import { call } from "../harness.ts";

/** The run's report once it has ended (any status but Queued / Running). */
export async function endedRun(app: FastifyInstance, token: string, runId: number) {
  for (let i = 0; i < 1200; i++) {
    const res = await call(app, "GET", `/api/JobHistory/report/${runId}`, { token });
    const run = res.body.data;
    if (run && run.status !== "Queued" && run.status !== "Running") return run;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`run ${runId} did not end`);
}
