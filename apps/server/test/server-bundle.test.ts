import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { alive } from "../src/platform/db/embedded-postgres.ts";
import { serverNodeArgs } from "../src/server-process.ts";
import { freePort } from "./support/free-port.ts";

// `npm start` runs the server from its esbuild bundle (scripts/build.mjs), not from the sources under
// tsx (issue 13, item 4: tsx's source maps cost about 100 MB of the process). The bundle must start
// as the sources do: migrations, the embedded cluster, the API, and a clean stop.
const serverDir = join(import.meta.dirname, "..");
const dataDir = mkdtempSync(join(tmpdir(), "ep-bundle-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

it("starts from the bundle (built by the global setup) on the embedded default as npm start runs it, answers, and stops cleanly", async () => {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DEMO: "0",
    BROWSER: "none",
    CAPTCHA: "off",
    LOG_LEVEL: "warn",
  };
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;
  const server = spawn(process.execPath, serverNodeArgs("start"), {
    cwd: serverDir,
    env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  server.stderr?.on("data", (d) => {
    stderr += String(d);
  });
  const exited = new Promise<number | null>((resolve) => server.once("exit", resolve));
  try {
    let health: Response | undefined;
    for (let i = 0; i < 600 && server.exitCode === null; i++) {
      health = await fetch(`http://127.0.0.1:${port}/health`).catch(() => undefined);
      if (health?.status === 200) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(health?.status, stderr).toBe(200);
    // The embedded cluster runs under the data dir (PostgreSQL, not PGlite).
    expect(existsSync(join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
    const postmaster = Number(
      readFileSync(join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0],
    );
    expect(alive(postmaster)).toBe(true);
    // An API call through the app's routes: without a session it is refused.
    const dashboard = await fetch(`http://127.0.0.1:${port}/api/Dashboard`);
    expect(dashboard.status).toBe(401);
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(alive(postmaster)).toBe(false);
  } finally {
    if (server.exitCode === null) server.kill("SIGKILL");
  }
}, 180_000);
