/**
 * The on-site agent's self-update (issue 39, item 4), shared by the server and the agent.
 *
 * The server announces its release in a `release` frame (after the agent's hello and at each heartbeat):
 * the version, the hours the merchant allows updates in, and whether a run is using the agent now. An
 * older agent downloads the file from `AGENT_UPDATE_PATH`, checks the Ed25519 signature the build made over
 * `releaseMessage(...)` with the public key built into it, swaps its executable and restarts; it reports
 * what it does in `update` frames (the panel shows "Güncelleniyor").
 */

export const AGENT_UPDATE_PATH = "/api/agent/update";

/** Hours (agent's local clock) updates may start in by default: 02:00–05:00. */
export const DEFAULT_UPDATE_WINDOW = { from: 2, to: 5 } as const;

export type AgentReleaseFrame = {
  type: "release";
  version: string;
  /** Updates may start from `from`:00 up to `to`:00 (wrapping past midnight); from === to: any hour. */
  window: { from: number; to: number };
  /** A run that uses this agent is in flight on the server: no update now. */
  busy: boolean;
};

export type AgentUpdateFrame = {
  type: "update";
  state: "started" | "done" | "failed";
  /** The version being installed (started, failed) or now running (done). */
  version: string;
  reason?: string;
};

/** What the build signs for each executable: the platform and version are bound to the file's hash. */
export const releaseMessage = (version: string, platform: string, sha256: string) =>
  `entegrasyon-agent\n${version}\n${platform}\n${sha256}`;

/** Whether version `a` is newer than `b` (dot-separated numbers; a suffix after "-" is ignored). */
export function isNewerVersion(a: string, b: string): boolean {
  const parts = (v: string) =>
    v
      .split("-")[0]!
      .split(".")
      .map((n) => Number.parseInt(n, 10) || 0);
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d > 0;
  }
  return false;
}

/** Whether `hour` (0–23) is inside the window; from === to means any hour. */
export function inUpdateWindow(hour: number, window: { from: number; to: number }): boolean {
  const { from, to } = window;
  if (from === to) return true;
  return from < to ? hour >= from && hour < to : hour >= from || hour < to;
}
