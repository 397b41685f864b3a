// `npm test`: every workspace's suites, in two lanes. The server's suites (its two passes, PGlite then
// PostgreSQL, about 21 of CI's 40 minutes) run in one; the others, the browser suite first (12 minutes,
// mostly waiting on the browser and the server: 45 % of one core), in the other. One after another they
// passed 30 minutes on a slow 2-core box. `TEST_LANES=1` runs them one after another.
import { spawnSync } from "node:child_process";
import { root, runInLanes, workspacesWith } from "./workspace-lanes.mjs";

const all = workspacesWith("test");
const server = all.filter((w) => w.location === "apps/server");
const browser = all.filter((w) => w.location === "e2e");
const others = [...browser, ...all.filter((w) => !server.includes(w) && !browser.includes(w))];
const lanes = process.env.TEST_LANES === "1" ? [[...server, ...others]] : [server, others];

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
const passed = await runInLanes("test", lanes, {
  live: true,
  report: (w, code, _out, seconds) => {
    ended.push(`${code === 0 ? "ok  " : "FAIL"} ${w.location} (${Math.round(seconds)} s)`);
    console.log(
      `== ${w.location}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${Math.round(seconds)} s`,
    );
  },
});
console.log(`== Suites\n${ended.join("\n")}`);
process.exit(passed ? 0 : 1);
