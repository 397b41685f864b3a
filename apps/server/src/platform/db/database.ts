import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";

/** Queries go through the Drizzle query builder; the relational API is not used, so no schema is bound. */
export type Db = NodePgDatabase;
export type SqlRows = { rows: Record<string, unknown>[] };

/** The database the whole server uses: one Drizzle handle and a raw SQL door for pg-boss. */
export type Database = {
  kind: "pglite" | "postgres";
  db: Db;
  /** Raw SQL (parameterised); a call without values may hold several statements. */
  executeSql(text: string, values?: unknown[]): Promise<SqlRows>;
  /** LISTEN on a channel (one dedicated connection on PostgreSQL); answers the stop function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /** Calls `onQuery` with every statement the Drizzle handle sends, until the returned function is called. */
  observeQueries(onQuery: (sql: string) => void): () => void;
  close(): Promise<void>;
};

/** Drizzle's query log hook, fanned out to whoever observes (tests count a request's statements). */
function queryObservers() {
  const observers = new Set<(sql: string) => void>();
  return {
    logger: {
      logQuery(query: string) {
        for (const observe of observers) observe(query);
      },
    },
    observeQueries(onQuery: (sql: string) => void) {
      observers.add(onQuery);
      return () => {
        observers.delete(onQuery);
      };
    },
  };
}

const migrationsFolder = resolve(dirname(fileURLToPath(import.meta.url)), "../../../drizzle");
// Any fixed number: processes starting together take turns applying migrations.
const MIGRATION_LOCK = 7_342_001;

/**
 * Opens PostgreSQL when `databaseUrl` is given, otherwise the embedded PGlite under `dataDir`
 * (`memory` keeps it in memory, for tests), then applies the checked-in migrations.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string | "memory";
  onIdleError?: (error: Error) => void;
}): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection dropped by the server (restart, failover) must not take the process down;
    // the pool replaces it on the next query.
    pool.on("error", (error) => options.onIdleError?.(error));
    const observed = queryObservers();
    const db = drizzlePg(pool, { logger: observed.logger });
    const client = await pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await migratePg(drizzlePg(client), { migrationsFolder });
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
    return {
      kind: "postgres",
      db,
      async executeSql(text, values) {
        const result = await pool.query(text, values);
        // A multi-statement text answers with one result per statement; the last one counts.
        const last = Array.isArray(result) ? result[result.length - 1] : result;
        return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
      },
      async listen(channel, onPayload) {
        // A dedicated client: LISTEN belongs to one connection, and a pool would hand it around.
        const client = new pg.Client({ connectionString: options.databaseUrl });
        client.on("error", (error) => options.onIdleError?.(error));
        await client.connect();
        client.on("notification", (n) => {
          if (n.channel === channel) onPayload(n.payload ?? "");
        });
        await client.query(`LISTEN ${quoteIdent(channel)}`);
        return async () => {
          await client.end().catch(() => undefined);
        };
      },
      observeQueries: observed.observeQueries,
      close: () => pool.end(),
    };
  }
  let path: string | undefined;
  if (options.dataDir && options.dataDir !== "memory") {
    path = join(options.dataDir, "pglite");
    mkdirSync(path, { recursive: true });
  }
  const client = await PGlite.create(path);
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  const observed = queryObservers();
  const pgliteDb = drizzlePglite(client, { logger: observed.logger });
  return {
    kind: "pglite",
    // Both drivers expose the same query builder; the server is written against one type.
    db: pgliteDb as unknown as Db,
    async executeSql(text, values) {
      if (!values || values.length === 0) {
        const results = await client.exec(text);
        return { rows: (results[results.length - 1]?.rows ?? []) as Record<string, unknown>[] };
      }
      const result = await client.query(text, values);
      return { rows: result.rows as Record<string, unknown>[] };
    },
    async listen(channel, onPayload) {
      const unsubscribe = await client.listen(channel, onPayload);
      return async () => {
        await unsubscribe();
      };
    },
    observeQueries: observed.observeQueries,
    close: () => client.close(),
  };
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function pingDatabase(database: Database): Promise<void> {
  await database.db.execute(sql`select 1`);
}
