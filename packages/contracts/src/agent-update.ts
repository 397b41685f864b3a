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

/**
 * Semantic-version precedence of `a` against `b` (negative: older, 0: same, positive: newer), as
 * semver.org §11 orders them: numbers by value, a pre-release (`1.0.0-rc.1`) before its release,
 * pre-release identifiers numeric before alphanumeric; build metadata (`+…`) and a leading "v" ignored.
 */
function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core = "", pre] = v.trim().replace(/^v/i, "").split("+")[0]!.split(/-(.*)/s);
    return {
      core: core.split(".").map((n) => Number.parseInt(n, 10) || 0),
      pre: pre ? pre.split(".") : [],
    };
  };
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < Math.max(x.core.length, y.core.length, 3); i++) {
    const d = (x.core[i] ?? 0) - (y.core[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  // A release comes after its pre-releases.
  if (x.pre.length === 0 || y.pre.length === 0) return Math.sign(y.pre.length) - Math.sign(x.pre.length);
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const [p, q] = [x.pre[i], y.pre[i]];
    if (p === undefined || q === undefined) return p === undefined ? -1 : 1;
    if (p === q) continue;
    const [pn, qn] = [/^\d+$/.test(p), /^\d+$/.test(q)];
    if (pn && qn) return Math.sign(Number(p) - Number(q));
    if (pn !== qn) return pn ? -1 : 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

/** Whether version `a` is newer than `b` (see `compareVersions`). */
export function isNewerVersion(a: string, b: string): boolean {
  return compareVersions(a, b) > 0;
}

/** Whether `hour` (0–23) is inside the window; from === to means any hour. */
export function inUpdateWindow(hour: number, window: { from: number; to: number }): boolean {
  const { from, to } = window;
  if (from === to) return true;
  return from < to ? hour >= from && hour < to : hour >= from || hour < to;
}
