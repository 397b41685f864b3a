// `npm run typecheck`: every workspace's own `typecheck` script (tsc --noEmit, strict), two at a time.
// One after another they took 89–99 s on a 2-core box; each tsc is mostly one thread, so two at once
// take about 73 s, checking exactly the same.
import { runInLanes, sharedQueue, workspacesWith } from "./workspace-lanes.mjs";

const queue = workspacesWith("typecheck");
// Two lanes sharing one queue: each takes the next workspace as it frees.
const passed = await runInLanes("typecheck", [sharedQueue(queue), sharedQueue(queue)], {
  report: (w, code, out) => {
    console.log(`${code === 0 ? "ok  " : "FAIL"} ${w.location}`);
    if (code !== 0) console.log(out);
  },
});
process.exit(passed ? 0 : 1);
