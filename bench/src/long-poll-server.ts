/**
 * Child process of the long-poll bench: the real server (API, auth, run-event hub on LISTEN/NOTIFY)
 * on the bench's database, without queue workers or scheduler so only HTTP work is measured. On
 * request it publishes run events the way the engine does while runs are going: a progress event
 * per run every 750 ms (the runner's PROGRESS_EVERY_MS), and now and then a run that ends and the
 * next one queued.
 */
import { buildApp } from "@ep/server/app";
import { closeContext, createContext } from "@ep/server/bootstrap";
import { loadConfig } from "@ep/server/config";
import { failIpc, serveIpc } from "./ipc.ts";

export type LongPollServerReady = { url: string };
export type EventLoad = { companyIds: number[]; jobTypes: string[] };

const PROGRESS_EVERY_MS = 750;
const TICKS_PER_RUN = 40;

async function main() {
  const config = loadConfig({
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    DATA_DIR: process.env.BENCH_DATA_DIR ?? "",
    LOG_LEVEL: "warn",
    PORT: "0",
  });
  const ctx = await createContext(config, { workers: false, scheduler: false });
  const app = await buildApp(ctx);
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  let timers: NodeJS.Timeout[] = [];
  let published = 0;
  let runId = 1_000_000;

  const startEvents = ({ companyIds, jobTypes }: EventLoad) => {
    for (const companyId of companyIds) {
      jobTypes.forEach((jobType, jobId) => {
        let current = ++runId;
        let tick = 0;
        const publish = (
          status: string,
          counts?: { read: number; changed: number; written: number; failed: number },
        ) => {
          published++;
          ctx.engine.hub
            .publish({
              companyId,
              runId: current,
              jobId: jobId + 1,
              jobType,
              status,
              ...(counts ? { counts } : {}),
            })
            .catch((error) => console.error("publish failed", error));
        };
        // Each run starts at a random phase, as runs of different jobs do.
        const start = setTimeout(() => {
          const timer = setInterval(() => {
            tick++;
            if (tick % TICKS_PER_RUN === 0) {
              publish("Succeeded", { read: tick * 100, changed: tick, written: tick, failed: 0 });
              current = ++runId;
              publish("Queued");
              return;
            }
            publish("Running", { read: tick * 100, changed: tick, written: tick, failed: 0 });
          }, PROGRESS_EVERY_MS);
          timers.push(timer);
        }, Math.random() * PROGRESS_EVERY_MS);
        timers.push(start);
      });
    }
  };

  serveIpc({ url: address } satisfies LongPollServerReady, {
    startEvents: (args) => startEvents(args as EventLoad),
    stopEvents: () => {
      for (const t of timers) clearInterval(t);
      timers = [];
      return published;
    },
    close: async () => {
      for (const t of timers) clearInterval(t);
      await app.close();
      await closeContext(ctx);
      setImmediate(() => process.exit(0));
    },
  });
}

main().catch(failIpc);
