import { randomBytes } from "node:crypto";
import pg from "pg";

/**
 * A fresh PostgreSQL database for one test file when DATABASE_URL is set (CI's second pass), dropped
 * afterwards; undefined otherwise (the test then uses the embedded database). `TEST_DB_PREFIX` names it
 * (default `ep_test_`), so runs sharing one PostgreSQL server keep to their own databases.
 */
export async function freshPostgres(): Promise<{ url: string; drop(): Promise<void> } | undefined> {
  if (!process.env.DATABASE_URL) return undefined;
  const name = `${process.env.TEST_DB_PREFIX ?? "ep_test_"}${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(process.env.DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
