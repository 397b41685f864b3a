import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { serverDir, serverNodeArgs } from "@ep/server/server-process";
import type { TestProject } from "vitest/node";
import { startMailbox } from "./mailbox.ts";
import { SUPPORT_ACCOUNT } from "./support-account.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    mailboxDir: string;
    /** Where the Ideasoft install spec starts its emulator (the server's IDEASOFT_OAUTH_BASE). */
    ideasoftPort: number;
    /** Where the Logo sign-on spec starts its İşbaşı emulator (the server's LOGO_ISBASI_API_URL). */
    logoIsbasiPort: number;
  }
}

const root = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** Builds apps/web when dist is missing or older than its sources (the web workspace's own script). */
function buildWebIfStale(): void {
  const result = spawnSync("npm", ["run", "build:if-stale", "-w", "@ep/web"], {
    cwd: root,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("web build failed");
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const address = srv.address();
      const port = typeof address === "object" && address ? address.port : 0;
      srv.close(() => resolvePort(port));
    });
  });
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string, timeoutMs = 90_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output()}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`server did not answer /health within ${timeoutMs} ms:\n${output()}`);
}

export default async function setup(project: TestProject) {
  buildWebIfStale();
  // Each shard of a sharded run (`npm test`: two side by side) has its own server, and its own log.
  const shard = project.globalConfig.shard;
  const serverLog = shard ? `server-${shard.index}-of-${shard.count}.log` : "server.log";

  const work = mkdtempSync(join(tmpdir(), "ep-e2e-"));
  const mailboxDir = join(work, "mail");
  const mailbox = await startMailbox(mailboxDir);
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const ideasoftPort = await freePort();
  const logoIsbasiPort = await freePort();

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    DATA_DIR: join(work, "data"),
    SMTP_URL: `smtp://127.0.0.1:${mailbox.port}`,
    PUBLIC_URL: baseUrl,
    CAPTCHA: "adaptive",
    // The panel tests sign in as the demo company, which only a DEMO=1 server offers.
    DEMO: "1",
    // Every request and mail in e2e/test-results/server*.log, for reading a failed test against.
    LOG_LEVEL: "info",
    SUPPORT_EMAIL: SUPPORT_ACCOUNT.email,
    SUPPORT_PASSWORD: SUPPORT_ACCOUNT.password,
    // The tests' own emulators listen on loopback, which the outbound guard refuses unless allowed.
    OUTBOUND_ALLOW: "127.0.0.1",
    // Loopback is the tests' proxy: each browser context names its own client address (browser.ts).
    TRUST_PROXY: "127.0.0.1",
    // Our app in Ideasoft's app store, pointed at the install spec's emulator.
    IDEASOFT_CLIENT_ID: "e2e-ideasoft-client",
    IDEASOFT_CLIENT_SECRET: "e2e-ideasoft-secret-0123456789",
    IDEASOFT_OAUTH_BASE: `http://127.0.0.1:${ideasoftPort}`,
    // Logo's sign-on checks the arriving key at İşbaşı: the Logo sign-on spec's emulator.
    LOGO_ISBASI_API_URL: `http://127.0.0.1:${logoIsbasiPort}`,
  };
  // The browser tests always run on the embedded database.
  delete env.DATABASE_URL;
  delete env.NODE_OPTIONS;

  let log = "";
  // The server as `npm start` runs it: the bundle (built when stale) with the start script's node flags.
  const child = spawn(process.execPath, serverNodeArgs("start"), {
    cwd: serverDir,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d: Buffer) => {
    log += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    log += d.toString();
  });

  const stop = async () => {
    if (child.exitCode === null) {
      const exited = new Promise<void>((r) => child.once("exit", () => r()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    }
    await mailbox.close();
    rmSync(work, { recursive: true, force: true });
    // The server's warnings and errors outlive the run, so a failed browser test can be read against them.
    const results = join(root, "e2e/test-results");
    mkdirSync(results, { recursive: true });
    writeFileSync(join(results, serverLog), log);
  };

  try {
    await waitForHealth(baseUrl, child, () => log);
  } catch (error) {
    await stop();
    throw error;
  }

  project.provide("baseUrl", baseUrl);
  project.provide("mailboxDir", mailboxDir);
  project.provide("ideasoftPort", ideasoftPort);
  project.provide("logoIsbasiPort", logoIsbasiPort);
  return stop;
}
