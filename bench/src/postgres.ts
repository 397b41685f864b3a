import { randomBytes } from "node:crypto";
import pg from "pg";

/** A fresh database on the server of `serverUrl` (dropped afterwards), or undefined without one. */
export async function freshPostgres(
  serverUrl: string | undefined,
): Promise<{ name: string; url: string; drop(): Promise<void> } | undefined> {
  if (!serverUrl) return undefined;
  const name = `ep_bench_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
