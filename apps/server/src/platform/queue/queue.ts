import PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Database } from "../db/database.ts";

export type Queue = {
  boss: PgBoss;
  /** Enqueues a job; pass `tx` (a raw SQL door of an open transaction) to enqueue atomically with it. */
  send<T extends object>(name: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  ping(): Promise<void>;
  /** Stops taking jobs and waits up to `timeoutMs` (at least 1 s) for the ones under way. */
  stop(timeoutMs?: number): Promise<void>;
};

/** pg-boss on the server's own database: PGlite through `executeSql`, PostgreSQL the same way. */
export async function startQueue(database: Database, logger: Logger, queues: string[]): Promise<Queue> {
  let stopping = false;
  const executeSql = async (text: string, values?: unknown[]) => {
    try {
      return await database.executeSql(text, values);
    } catch (error) {
      // pg-boss records a job's outcome without awaiting it (its manager's work loop): a handler ending
      // after the stop's wait, with the database closing, would be an unhandled rejection. The stop has
      // already failed that job back to the queue, so it runs again. After the stop only such outcome
      // calls are made (workers and maintenance are stopped first): answered as "no row affected".
      if (stopping) {
        logger.warn({ err: error }, "queue call after stop dropped");
        return { rows: [{ count: 0 }] };
      }
      throw error;
    }
  };
  const boss = new PgBoss({ db: { executeSql } } as PgBoss.ConstructorOptions);
  boss.on("error", (error) => logger.error({ err: error }, "queue error"));
  await boss.start();
  for (const name of queues) await boss.createQueue(name);
  return {
    boss,
    send: (name, data, options) => boss.send(name, data, options ?? {}),
    async ping() {
      await database.executeSql("SELECT 1 FROM pgboss.version LIMIT 1", [] as unknown[]);
    },
    async stop(timeoutMs = 5000) {
      stopping = true;
      await boss.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
  };
}
