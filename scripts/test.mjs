// `npm test`: every workspace's suites, two at a time from one queue, longest first: each lane takes the
// next as it frees. The long ones are split so that neither lane is left with a long tail: the server's
// two passes (embedded database; PostgreSQL when DATABASE_URL is set) are two entries, and the
// browser suite is two shards, each on a server of its own. CI on 28 Nov (2 cores): the server's lane
// (both passes, one after the other) took 2724 s while the other (browser suite, 2128 s, then the rest)
// took 2334 s. `TEST_LANES=1` runs them one after another (the browser suite unsplit), `TEST_LANES=3`
// three at a time.
import { spawnSync } from "node:child_process";
import { root, runInLanes, sharedQueue, workspacesWith } from "./workspace-lanes.mjs";

const laneCount = Math.max(1, Number(process.env.TEST_LANES ?? 2) || 2);
const browserShards = laneCount > 1 ? 2 : 1;

const servers = [];
const browsers = [];
const rest = [];
for (const w of workspacesWith("test")) {
  if (w.location === "apps/server") {
    servers.push({ ...w, script: "test:embedded", label: "apps/server (embedded)" });
    if (process.env.DATABASE_URL)
      servers.push({ ...w, script: "test:postgres", label: "apps/server (PostgreSQL)" });
  } else if (w.location === "e2e" && browserShards > 1) {
    for (let i = 1; i <= browserShards; i++)
      browsers.push({ ...w, args: [`--shard=${i}/${browserShards}`], label: `e2e ${i}/${browserShards}` });
  } else if (w.location === "e2e") browsers.push(w);
  else rest.push(w);
}
// Longest first (CI's figures: a server pass about 1300 s, a browser shard about 1000 s, then the
// connectors, e-invoice, web and agent suites below), so the short ones fill the lanes' ends. A
// server pass and a browser shard alternate: each lane then pairs the server's CPU-bound pass with the
// browser's mostly waiting one, as the two lanes ran when CI measured them, instead of two passes at once.
const ciSeconds = { "packages/connectors": 116, "packages/einvoice": 38, "apps/web": 27, "apps/agent": 25 };
rest.sort((a, b) => (ciSeconds[b.location] ?? 0) - (ciSeconds[a.location] ?? 0));
const queue = [];
for (let i = 0; i < Math.max(servers.length, browsers.length); i++)
  queue.push(...[servers[i], browsers[i]].filter(Boolean));
queue.push(...rest);

// Both lanes start the server's bundle and the browser suite builds the web app: build them once here,
// so that two builds never write the same files at once.
for (const [what, args] of [
  ["the server's bundle", ["apps/server/scripts/build.mjs", "--if-stale"]],
  ["the web app", ["apps/web/scripts/build-if-stale.mjs"]],
]) {
  const build = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (build.status !== 0) {
    console.error(`${what} did not build`);
    process.exit(1);
  }
}

const ended = [];
const started = Date.now();
const passed = await runInLanes(
  "test",
  Array.from({ length: laneCount }, () => sharedQueue(queue)),
  {
    live: true,
    report: (w, code, _out, seconds) => {
      const name = w.label ?? w.location;
      const at = Math.round((Date.now() - started) / 1000);
      ended.push(`${code === 0 ? "ok  " : "FAIL"} ${name} (${Math.round(seconds)} s, ended at ${at} s)`);
      console.log(
        `== ${name}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${Math.round(seconds)} s`,
      );
    },
  },
);
console.log(`== Suites (${Math.round((Date.now() - started) / 1000)} s in all)\n${ended.join("\n")}`);
process.exit(passed ? 0 : 1);
