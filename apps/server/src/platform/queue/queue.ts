import PgBoss from "pg-boss";
import type { Logger } from "pino";
import type { Database } from "../db/database.ts";

export type Queue = {
  boss: PgBoss;
  /** Enqueues a job; pass `tx` (a raw SQL door of an open transaction) to enqueue atomically with it. */
  send<T extends object>(name: string, data: T, options?: PgBoss.SendOptions): Promise<string | null>;
  ping(): Promise<void>;
  stop(): Promise<void>;
};

/** pg-boss on the server's own database: PGlite through `executeSql`, PostgreSQL the same way. */
export async function startQueue(database: Database, logger: Logger, queues: string[]): Promise<Queue> {
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.executeSql(text, values) },
  } as PgBoss.ConstructorOptions);
  boss.on("error", (error) => logger.error({ err: error }, "queue error"));
  await boss.start();
  for (const name of queues) await boss.createQueue(name);
  return {
    boss,
    send: (name, data, options) => boss.send(name, data, options ?? {}),
    async ping() {
      await database.executeSql("SELECT 1 FROM pgboss.version LIMIT 1", [] as unknown[]);
    },
    async stop() {
      await boss.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
