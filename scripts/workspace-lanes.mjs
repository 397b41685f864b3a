// Runs one npm script of many workspaces in a few lanes at once, each lane taking the next
// workspace as it frees: `npm run typecheck` and `npm test` on a 2-core box.
import { execFileSync, spawn } from "node:child_process";
import { join } from "node:path";

export const root = join(import.meta.dirname, "..");

/** npm's own list of the workspaces that define `script`, as { location }. */
export function workspacesWith(script) {
  const all = JSON.parse(execFileSync("npm", ["query", ".workspace"], { cwd: root, encoding: "utf8" }));
  return all.filter((w) => w.scripts?.[script]).map((w) => ({ location: w.location }));
}

/** A lane that takes the next item of `queue` as it frees: lanes made over one queue share it. */
export function sharedQueue(queue) {
  return {
    *[Symbol.iterator]() {
      while (queue.length > 0) yield queue.shift();
    },
  };
}

/**
 * Runs `npm run <script> -w <location>` for each workspace of each lane; lanes run side by side. A
 * workspace may name its own `script` and `args` (passed after `--`, e.g. a shard of its files) and a
 * `label` for its output. `report(workspace, code, output, seconds)` hears of each end, with the
 * workspace's output; with `live`, the output goes to stdout as it comes instead (each line prefixed
 * with the label or folder) and `output` is empty. Resolves to true when all passed.
 */
export async function runInLanes(script, lanes, { live = false, report }) {
  const runOne = (w) =>
    new Promise((resolve) => {
      const started = Date.now();
      const args = ["run", w.script ?? script, "--silent", "-w", w.location];
      if (w.args) args.push("--", ...w.args);
      const child = spawn("npm", args, { cwd: root });
      const tag = `${w.label ?? w.location} │ `;
      let out = "";
      let partial = "";
      const take = (chunk) => {
        if (!live) {
          out += chunk;
          return;
        }
        const lines = (partial + chunk).split("\n");
        partial = lines.pop() ?? "";
        for (const line of lines) process.stdout.write(`${tag}${line}\n`);
      };
      child.stdout.on("data", take);
      child.stderr.on("data", take);
      child.on("close", (code) => {
        if (live && partial) process.stdout.write(`${tag}${partial}\n`);
        report(w, code, out, (Date.now() - started) / 1000);
        resolve(code === 0);
      });
    });
  const results = await Promise.all(
    lanes.map(async (lane) => {
      const passed = [];
      for (const w of lane) passed.push(await runOne(w));
      return passed.every(Boolean);
    }),
  );
  return results.every(Boolean);
}
