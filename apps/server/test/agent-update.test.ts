/**
 * Issue 39, item 4: the agent updates itself. Two real Linux single executables are built here (0.1.0 and
 * 0.1.1, Linux only, signed with a key made for this test); the server offers 0.1.1. Each test runs the
 * 0.1.0 file copied to a temporary folder:
 * - re-spawning itself (no service manager): it downloads, checks the signature, swaps and comes back 0.1.1;
 * - under a supervisor that restarts it like systemd (Restart=always), killed with SIGKILL at each step
 *   of the swap: the file is always a whole 0.1.0 or 0.1.1, the agent comes back, calls made meanwhile
 *   arrive once each, and it ends on 0.1.1;
 * - a new version that does not come online before the deadline: the old file is put back;
 * - a file whose signature is not the build key's: refused, 0.1.0 keeps running.
 */
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { createHash, generateKeyPairSync, sign } from "node:crypto";
import {
  copyFileSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { releaseMessage } from "@ep/contracts/agent-update";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentHubOf } from "../src/modules/agents/service.ts";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

const here = dirname(fileURLToPath(import.meta.url));
const buildScript = resolve(here, "../../agent/scripts/build-exe.mjs");
const FILE = "entegrasyon-agent-linux-x64";
const OLD = "0.1.0";
const NEW = "0.1.1";

const work = mkdtempSync(join(tmpdir(), "ep-agent-update-"));
const oldDir = join(work, "old");
const newDir = join(work, "new");
const badDir = join(work, "bad");
let t: TestApp;
let server: string;
let echo: Server;
let echoUrl: string;
/** Calls that reached the echo server, by the id in their path. */
const hits = new Map<string, number>();
const started: ChildProcess[] = [];

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
const versionOf = (exe: string) => spawnSync(exe, ["--version"], { encoding: "utf8" }).stdout.trim();

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 90_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`timed out waiting for: ${what}`);
}

beforeAll(async () => {
  const { privateKey } = generateKeyPairSync("ed25519");
  const keyFile = join(work, "signing-key.pem");
  writeFileSync(keyFile, privateKey.export({ type: "pkcs8", format: "pem" }), { mode: 0o600 });
  const build = (version: string, out: string) =>
    promisify(execFile)(
      process.execPath,
      [buildScript, "--out", out, "--agent-version", version, "--platform", "linux"],
      { env: { ...process.env, AGENT_SIGNING_KEY_FILE: keyFile }, maxBuffer: 16 * 1024 * 1024 },
    );
  await build(OLD, oldDir);
  await build(NEW, newDir);
  // The same 0.1.1 file, its manifest signed by a key that is not the one built into the agents.
  mkdirSync(badDir);
  linkSync(join(newDir, FILE), join(badDir, FILE));
  const manifest = JSON.parse(readFileSync(join(newDir, "manifest.json"), "utf8"));
  const other = generateKeyPairSync("ed25519").privateKey;
  for (const f of manifest.files)
    f.signature = sign(null, Buffer.from(releaseMessage(NEW, f.platform, f.sha256)), other).toString(
      "base64",
    );
  writeFileSync(join(badDir, "manifest.json"), JSON.stringify(manifest));

  process.env.AGENT_DOWNLOADS_DIR = newDir;
  t = await startTestApp({
    CAPTCHA: "off",
    AGENT_OFFLINE_WAIT_SECONDS: "30",
    CONNECTOR_TIMEOUT_SECONDS: "10",
  });
  server = await t.app.listen({ port: 0, host: "127.0.0.1" });
  echo = createServer((req, res) => {
    hits.set(req.url!, (hits.get(req.url!) ?? 0) + 1);
    res.end(req.url);
  });
  await new Promise<void>((r) => echo.listen(0, "127.0.0.1", r));
  echoUrl = `http://127.0.0.1:${(echo.address() as AddressInfo).port}`;
}, 240_000);

afterAll(async () => {
  for (const c of started) c.kill("SIGKILL");
  // Processes the agents re-spawned themselves (not our children): found by their own temporary home.
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(work)) process.kill(Number(pid), "SIGKILL");
    } catch {}
  }
  delete process.env.AGENT_DOWNLOADS_DIR;
  echo?.close();
  await t?.close();
  rmSync(work, { recursive: true, force: true });
});

type Installed = { exe: string; home: string; token: string; agentId: number; log: () => string };

/** The 0.1.0 file in a folder of its own, paired with a new company; it may update at any hour. */
async function install(name: string): Promise<Installed> {
  const folder = join(work, name);
  mkdirSync(folder);
  const exe = join(folder, "entegrasyon-agent");
  copyFileSync(join(oldDir, FILE), exe);
  const home = join(folder, "home");
  const { token } = await registerAndLogin(t.app);
  const code = (await call(t.app, "POST", "/api/agents/pairing-code", { token })).body.data.code as string;
  // Not spawnSync: the server answering the pairing runs in this very process.
  await promisify(execFile)(exe, ["pair", code, "--server", server, "--home", home]);
  const list = await call(t.app, "GET", "/api/agents", { token });
  const agentId = list.body.data[0].id as number;
  expect(list.body.data[0].updateWindow).toEqual({ from: 2, to: 5 }); // night by default
  const set = await call(t.app, "PUT", `/api/agents/${agentId}/update-window`, {
    token,
    body: { from: 0, to: 0 },
  });
  expect(set.status).toBe(200);
  const log = () =>
    existsSync(join(home, "agent.log")) ? readFileSync(join(home, "agent.log"), "utf8") : "";
  return { exe, home, token, agentId, log };
}

const agentView = async (a: Installed) =>
  (await call(t.app, "GET", "/api/agents", { token: a.token })).body.data.find(
    (x: { id: number }) => x.id === a.agentId,
  ) as { version: string; online: boolean; updating: boolean };

const onlineAt = (a: Installed, version: string) =>
  until(`agent online on ${version}`, async () => {
    const v = await agentView(a);
    return v.online && v.version === version && agentHubOf(t.ctx).isOnline(a.agentId) ? v : undefined;
  });

/** A call through the agent to the echo server; answers the echoed path. */
async function relay(a: Installed, id: string): Promise<string> {
  const res = await agentHubOf(t.ctx).fetchFor(a.agentId)(`${echoUrl}/${id}`);
  return res.text();
}

const baseEnv = (folder: string) => ({
  PATH: "/usr/bin:/bin",
  HOME: folder,
  LANG: "C.UTF-8",
  ENTEGRASYON_AGENT_UPDATE_QUIET_MS: "0",
});

/** Restarts the agent whenever it ends, like systemd's Restart=always (exit 2, refused, is final). */
function supervise(a: Installed, env: Record<string, string>) {
  let stopped = false;
  let child: ChildProcess;
  const state = { env, starts: 0 };
  const start = () => {
    state.starts++;
    child = spawn(a.exe, ["run", "--home", a.home], {
      env: { ...baseEnv(dirname(a.exe)), ENTEGRASYON_AGENT_SERVICE: "1", ...state.env },
      stdio: "ignore",
    });
    started.push(child);
    child.once("exit", (code) => {
      if (!stopped && code !== 2) setTimeout(start, 200);
    });
  };
  start();
  return {
    state,
    kill: () => child.kill("SIGKILL"),
    stop: () => {
      stopped = true;
      child.kill("SIGKILL");
    },
  };
}

describe("the agent updates itself", () => {
  it("re-spawning itself: downloads 0.1.1 from the server, checks its signature, swaps and comes back 0.1.1", async () => {
    const a = await install("respawn");
    const before = Date.now();
    const child = spawn(a.exe, ["run", "--home", a.home], { env: baseEnv(dirname(a.exe)), stdio: "ignore" });
    started.push(child);
    await onlineAt(a, NEW);
    const tookMs = Date.now() - before;
    expect(versionOf(a.exe)).toBe(NEW);
    expect(sha(a.exe)).toBe(sha(join(newDir, FILE)));
    // Committed: no leftovers, and the update state is clear.
    await until("backup removed", () => !existsSync(`${a.exe}.old`) && !existsSync(`${a.exe}.new`));
    expect(JSON.parse(readFileSync(join(a.home, "update.json"), "utf8")).phase).toBeNull();
    expect(await relay(a, "respawn-1")).toBe("/respawn-1");
    expect((await agentView(a)).updating).toBe(false);
    expect(a.log()).toContain(`${NEW} is online: update done (from ${OLD})`);
    console.log(`re-spawn update: 0.1.0 → 0.1.1 online again ${tookMs} ms after the old one started`);
  }, 180_000);

  for (const hold of ["downloaded", "backed-up", "replaced"]) {
    it(`under a service manager, killed mid-swap (${hold}): comes back whole on the old or new file, nothing lost, ends on 0.1.1`, async () => {
      const a = await install(`kill-${hold}`);
      const svc = supervise(a, { ENTEGRASYON_AGENT_TEST_HOLD: hold });
      try {
        await until(`held at ${hold}`, () => a.log().includes(`held at ${hold}`));
        // The panel says it is updating.
        expect((await agentView(a)).updating).toBe(true);
        svc.state.env = {}; // the next starts run normally
        svc.kill();
        // Never broken: the file in place is a whole 0.1.0 or 0.1.1.
        const now = sha(a.exe);
        expect([sha(join(oldDir, FILE)), sha(join(newDir, FILE))]).toContain(now);
        expect([OLD, NEW]).toContain(versionOf(a.exe));
        // Calls made while it is down wait for it and arrive once each (the update then waits for the
        // next heartbeat's release frame: never while a call is in flight).
        await until("the server sees it gone", () => !agentHubOf(t.ctx).isOnline(a.agentId));
        const ids = [1, 2, 3].map((i) => `${hold}-${i}`);
        const answers = await Promise.all(ids.map((id) => relay(a, id)));
        expect(answers).toEqual(ids.map((id) => `/${id}`));
        await onlineAt(a, NEW);
        expect(versionOf(a.exe)).toBe(NEW);
        for (const id of ids) expect(hits.get(`/${id}`)).toBe(1);
        expect(await relay(a, `${hold}-after`)).toBe(`/${hold}-after`);
        await until("backup removed", () => !existsSync(`${a.exe}.old`) && !existsSync(`${a.exe}.new`));
      } finally {
        svc.stop();
      }
    }, 180_000);
  }

  it("a new version that does not come online within the deadline: the old file is put back and kept", async () => {
    const a = await install("rollback");
    const svc = supervise(a, {
      ENTEGRASYON_AGENT_TEST_HOLD: "new-offline",
      ENTEGRASYON_AGENT_UPDATE_DEADLINE_MS: "3000",
    });
    try {
      await until("rolled back", () => a.log().includes("not online in time: putting"));
      await until("the old one back", async () =>
        a.log().includes(`${NEW} did not come online: back on ${OLD}`),
      );
      await onlineAt(a, OLD);
      expect(versionOf(a.exe)).toBe(OLD);
      expect(sha(a.exe)).toBe(sha(join(oldDir, FILE)));
      expect(JSON.parse(readFileSync(join(a.home, "update.json"), "utf8")).refused).toEqual([NEW]);
      // Not tried again: a restart greets it with the same release, and it stays on 0.1.0.
      const starts = svc.state.starts;
      svc.kill();
      await until("restarted", () => svc.state.starts > starts);
      await onlineAt(a, OLD);
      await new Promise((r) => setTimeout(r, 2000));
      expect(versionOf(a.exe)).toBe(OLD);
      expect(await relay(a, "rollback-1")).toBe("/rollback-1");
    } finally {
      svc.stop();
    }
  }, 180_000);

  it("a file whose signature is not the build key's is refused; 0.1.0 keeps running", async () => {
    process.env.AGENT_DOWNLOADS_DIR = badDir;
    const a = await install("bad-signature");
    const oldSha = sha(a.exe);
    const child = spawn(a.exe, ["run", "--home", a.home], { env: baseEnv(dirname(a.exe)), stdio: "ignore" });
    started.push(child);
    try {
      await until("refused", () => a.log().includes(`${NEW} refused: its signature is not ours`));
      expect(sha(a.exe)).toBe(oldSha);
      expect(existsSync(`${a.exe}.new`)).toBe(false);
      expect(child.exitCode).toBeNull();
      await onlineAt(a, OLD);
      // The agent's "failed" frame follows the log line it wrote: the panel stops showing the update
      // once the server has recorded it.
      await until("update no longer shown", async () => ((await agentView(a)).updating ? undefined : true));
      expect(await relay(a, "bad-1")).toBe("/bad-1");
    } finally {
      process.env.AGENT_DOWNLOADS_DIR = newDir;
      child.kill("SIGKILL");
    }
  }, 120_000);
});
