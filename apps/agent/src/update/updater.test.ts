import { generateKeyPairSync, sign } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AgentReleaseFrame,
  inUpdateWindow,
  isNewerVersion,
  releaseMessage,
} from "@ep/contracts/agent-update";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentStore } from "../store.ts";
import { AgentUpdater, verifyRelease } from "./updater.ts";

/** The update server: counts downloads and answers 503 (so an attempt ends at once as failed). */
const downloads: string[] = [];
const server = createServer((req, res) => {
  downloads.push(`${req.url} ${req.headers.authorization}`);
  res.statusCode = 503;
  res.end();
});
let base: string;
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => server.close());

const { publicKey, privateKey } = generateKeyPairSync("ed25519");
const publicDer = publicKey.export({ type: "spki", format: "der" }).toString("base64");

function updater(activity = { inFlight: 0, lastCallAt: 0 }) {
  const dir = mkdtempSync(join(tmpdir(), "ep-updater-"));
  const exe = join(dir, "entegrasyon-agent");
  writeFileSync(exe, "old");
  const sent: object[] = [];
  const u = new AgentUpdater({
    store: new AgentStore(join(dir, "home")),
    config: { server: base, agentId: 1, credential: "epa_x" },
    version: "1.0.0",
    exe,
    args: [],
    service: true,
    publicKey: publicDer,
    quietMs: 1000,
    exit: () => undefined,
  });
  u.attach({
    activity: () => activity,
    notify: (f) => sent.push(f) > 0,
    stop: () => undefined,
    proxy: undefined,
  });
  return { u, sent, activity };
}

const hour = new Date().getHours();
const release = (patch: Partial<AgentReleaseFrame> = {}): AgentReleaseFrame => ({
  type: "release",
  version: "1.0.1",
  window: { from: hour, to: (hour + 1) % 24 },
  busy: false,
  ...patch,
});
const settle = () => new Promise((r) => setTimeout(r, 300));

describe("when the agent updates itself", () => {
  it("only to a newer version, inside the merchant's hours, with no run and no call in flight", async () => {
    const before = downloads.length;
    const { u, sent, activity } = updater();
    u.onRelease(release({ version: "1.0.0" })); // the same version
    u.onRelease(release({ version: "0.9.9" })); // older
    u.onRelease(release({ window: { from: (hour + 1) % 24, to: (hour + 2) % 24 } })); // outside the hours
    u.onRelease(release({ busy: true })); // a run uses the agent
    activity.inFlight = 1;
    u.onRelease(release()); // a relayed call in flight
    activity.inFlight = 0;
    activity.lastCallAt = Date.now();
    u.onRelease(release()); // a call a moment ago: part of a run
    await settle();
    expect(downloads.length).toBe(before);
    expect(sent).toEqual([]);

    activity.lastCallAt = Date.now() - 5000;
    u.onRelease(release());
    await settle();
    expect(downloads.slice(before)).toEqual(["/api/agent/update/linux Bearer epa_x"]);
    expect(sent).toEqual([
      { type: "update", state: "started", version: "1.0.1" },
      expect.objectContaining({ type: "update", state: "failed", version: "1.0.1" }),
    ]);
    // A failed download waits before the next try.
    u.onRelease(release());
    await settle();
    expect(downloads.length).toBe(before + 1);
  });

  it("takes only the build key's signature over this version, platform and hash", () => {
    const good = { version: "1.0.1", platform: "linux", sha256: "ab".repeat(32) };
    const signature = sign(
      null,
      Buffer.from(releaseMessage(good.version, good.platform, good.sha256)),
      privateKey,
    );
    const ok = { ...good, signature: signature.toString("base64") };
    expect(verifyRelease(publicDer, ok)).toBe(true);
    expect(verifyRelease(publicDer, { ...ok, version: "1.0.2" })).toBe(false);
    expect(verifyRelease(publicDer, { ...ok, platform: "windows" })).toBe(false);
    expect(verifyRelease(publicDer, { ...ok, sha256: "cd".repeat(32) })).toBe(false);
    expect(verifyRelease(publicDer, { ...ok, signature: "" })).toBe(false);
    const other = generateKeyPairSync("ed25519").publicKey.export({ type: "spki", format: "der" });
    expect(verifyRelease(other.toString("base64"), ok)).toBe(false);
  });

  it("reads versions by number and hours across midnight", () => {
    expect(isNewerVersion("0.1.10", "0.1.9")).toBe(true);
    expect(isNewerVersion("0.2.0", "0.10.0")).toBe(false);
    expect(isNewerVersion("1.0.0", "1.0.0")).toBe(false);
    // Semver precedence: a pre-release comes before its release, identifiers by number then text.
    expect(isNewerVersion("1.0.0", "1.0.0-rc.1")).toBe(true);
    expect(isNewerVersion("1.0.0-rc.1", "1.0.0")).toBe(false);
    expect(isNewerVersion("1.0.0-rc.10", "1.0.0-rc.9")).toBe(true);
    expect(isNewerVersion("1.0.0-beta", "1.0.0-alpha.1")).toBe(true);
    expect(isNewerVersion("1.0.0-alpha.1", "1.0.0-alpha")).toBe(true);
    expect(isNewerVersion("1.0.0-alpha.beta", "1.0.0-alpha.1")).toBe(true);
    expect(isNewerVersion("v1.2.0+build.7", "1.1.9")).toBe(true);
    expect(isNewerVersion("1.0.0+build.2", "1.0.0+build.1")).toBe(false);
    expect(inUpdateWindow(3, { from: 2, to: 5 })).toBe(true);
    expect(inUpdateWindow(5, { from: 2, to: 5 })).toBe(false);
    expect(inUpdateWindow(23, { from: 22, to: 4 })).toBe(true);
    expect(inUpdateWindow(1, { from: 22, to: 4 })).toBe(true);
    expect(inUpdateWindow(12, { from: 22, to: 4 })).toBe(false);
    expect(inUpdateWindow(12, { from: 0, to: 0 })).toBe(true);
  });
});
