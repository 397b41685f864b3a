import type { NodePgDatabase } from "drizzle-orm/node-postgres";

/** The engine works through the same Drizzle query builder the server opens (PGlite or PostgreSQL). */
export type Db = NodePgDatabase;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Executor = Db | Tx;
