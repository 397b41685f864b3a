import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import { drizzle as drizzlePg, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { embeddedPostgresAvailable, startEmbeddedPostgres } from "./embedded-postgres.ts";

/** Queries go through the Drizzle query builder; the relational API is not used, so no schema is bound. */
export type Db = NodePgDatabase;
export type SqlRows = { rows: Record<string, unknown>[] };

/** The database the whole server uses: one Drizzle handle and a raw SQL door for pg-boss. */
export type Database = {
  kind: "pglite" | "postgres";
  /** PostgreSQL run by this server under its data dir (the embedded default), not an external server. */
  embedded?: boolean;
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
/**
 * Connections per server process. An external server is sized for its own machine. The embedded
 * cluster shares the merchant's machine with this process, and each of its backends costs about
 * 5 MB of the 300 MB the whole product may use (issue 13, item 4), so it gets fewer; measured in
 * bench/README.md ("Memory at 100,000 SKUs").
 */
const EXTERNAL_POOL_SIZE = 10;
const EMBEDDED_POOL_SIZE = 5;

// Any fixed number: processes starting together take turns applying migrations.
const MIGRATION_LOCK = 7_342_001;

/**
 * Opens PostgreSQL when `databaseUrl` is given. Otherwise the embedded database under `dataDir`: a
 * PostgreSQL cluster this server runs (`embedded: "postgres"`, the default where the platform's
 * binaries are installed) or PGlite (`embedded: "pglite"`, and always for `memory`, which tests use).
 * Then applies the checked-in migrations.
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir?: string | "memory";
  embedded?: "postgres" | "pglite";
  /** For `memory`: a file from `writePgliteTemplate` to start from instead of initdb (the suites make one per run). */
  memoryTemplate?: string;
  onIdleError?: (error: Error) => void;
  log?: (message: string) => void;
}): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.onIdleError);
  const dataDir = options.dataDir;
  if (dataDir && dataDir !== "memory" && options.embedded !== "pglite") {
    // A data dir that already holds PGlite data stays on PGlite: switching would hide that data.
    const pgliteInUse = existsSync(join(dataDir, "pglite")) && !existsSync(join(dataDir, "postgres"));
    if (pgliteInUse) options.log?.(`${join(dataDir, "pglite")} holds PGlite data: staying on PGlite`);
    else if (await embeddedPostgresAvailable()) {
      const cluster = await startEmbeddedPostgres(
        join(dataDir, "postgres"),
        options.log ?? (() => undefined),
      );
      try {
        const database = await openPostgres(cluster.url, options.onIdleError, EMBEDDED_POOL_SIZE);
        return {
          ...database,
          embedded: true,
          async close() {
            await database.close();
            await cluster.stop();
          },
        };
      } catch (error) {
        await cluster.stop();
        throw error;
      }
    } else options.log?.("no embedded PostgreSQL binaries for this platform: using PGlite");
  }
  return openPglite(dataDir, dataDir === "memory" ? options.memoryTemplate : undefined);
}

async function openPostgres(
  databaseUrl: string,
  onIdleError?: (error: Error) => void,
  poolSize = EXTERNAL_POOL_SIZE,
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  // Once closing, a connection cut by the embedded cluster's own stop is expected, not worth a line.
  let closing = false;
  const idleError = (error: Error) => {
    if (!closing) onIdleError?.(error);
  };
  // LISTEN belongs to one connection, which a pool would hand around: one client of its own listens
  // on every channel, so a second channel costs no second backend (about 5 MB in the embedded cluster).
  let listener: Promise<pg.Client> | undefined;
  const channels = new Map<string, Set<(payload: string) => void>>();
  const listenerClient = () => {
    listener ??= (async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      client.on("error", (error) => idleError(error));
      client.on("notification", (n) => {
        for (const onPayload of channels.get(n.channel) ?? []) onPayload(n.payload ?? "");
      });
      await client.connect();
      return client;
    })().catch((error: unknown) => {
      listener = undefined;
      throw error;
    });
    return listener;
  };
  // An idle connection dropped by the server (restart, failover) must not take the process down;
  // the pool replaces it on the next query.
  pool.on("error", idleError);
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
      const client = await listenerClient();
      let handlers = channels.get(channel);
      if (!handlers) {
        handlers = new Set();
        channels.set(channel, handlers);
        await client.query(`LISTEN ${quoteIdent(channel)}`);
      }
      handlers.add(onPayload);
      return async () => {
        handlers.delete(onPayload);
        if (handlers.size > 0 || channels.get(channel) !== handlers) return;
        channels.delete(channel);
        await client.query(`UNLISTEN ${quoteIdent(channel)}`).catch(() => undefined);
      };
    },
    observeQueries: observed.observeQueries,
    async close() {
      closing = true;
      // The LISTEN client too: an embedded cluster stopping next would otherwise cut it off.
      const client = await listener?.catch(() => undefined);
      listener = undefined;
      channels.clear();
      await client?.end().catch(() => undefined);
      await pool.end();
    },
  };
}

// Loaded only when used: PGlite's module alone is about 45 MB of a process's memory.
async function pgliteModules() {
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  return { PGlite, drizzlePglite, migratePglite };
}

/**
 * Writes a migrated, empty in-memory database to `file` (PGlite's data dir dump). A test process that
 * starts from it skips initdb, which costs several times what loading the dump does.
 */
export async function writePgliteTemplate(file: string): Promise<void> {
  const { PGlite, drizzlePglite, migratePglite } = await pgliteModules();
  const client = await PGlite.create();
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  const dump = await client.dumpDataDir("none");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await client.close();
}

async function openPglite(dataDir: string | undefined, template?: string): Promise<Database> {
  let path: string | undefined;
  if (dataDir && dataDir !== "memory") {
    path = join(dataDir, "pglite");
    mkdirSync(path, { recursive: true });
  }
  const { PGlite, drizzlePglite, migratePglite } = await pgliteModules();
  const client = template
    ? await PGlite.create({ loadDataDir: new Blob([readFileSync(template)]) })
    : await PGlite.create(path);
  // On a template too: a migration added since it was written is applied here.
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
