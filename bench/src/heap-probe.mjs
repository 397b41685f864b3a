/**
 * Loaded into the sync bench's worker process (`--import`) when BENCH_HEAP_PROBE names a file: every
 * 250 ms it writes the process's V8 figures there (a `HeapProbe`, process-memory.ts), so the bench can
 * print what the worker's PSS is made of at its peak without touching the server. Plain JavaScript:
 * the worker runs the server's bundle, without tsx. The code figures walk the whole heap (about 20 ms
 * on the worker's thread each time, 8 % of it at every 250 ms), so they are taken every 2 s: code
 * changes little once the worker runs.
 */
import { appendFileSync, renameSync, writeFileSync } from "node:fs";
import { getHeapCodeStatistics, getHeapSpaceStatistics } from "node:v8";

const file = process.env.BENCH_HEAP_PROBE;
// Under `npm start` (the idle bench) every node process inherits NODE_OPTIONS: npm, the build
// scripts, the demo agent. BENCH_HEAP_PROBE_SCRIPT names the one to probe (how its script path ends).
const only = process.env.BENCH_HEAP_PROBE_SCRIPT;
if (file && (!only || process.argv[1]?.endsWith(only))) {
  let c = getHeapCodeStatistics();
  let writes = 0;
  const write = () => {
    const m = process.memoryUsage();
    if (++writes % 8 === 0) c = getHeapCodeStatistics();
    const probe = {
      rss: m.rss,
      heapUsed: m.heapUsed,
      heapTotal: m.heapTotal,
      external: m.external,
      arrayBuffers: m.arrayBuffers,
      spaces: Object.fromEntries(getHeapSpaceStatistics().map((s) => [s.space_name, s.space_size])),
      code: {
        bytecode: c.bytecode_and_metadata_size,
        code: c.code_and_metadata_size,
        scriptSource: c.external_script_source_size,
      },
    };
    // Whole files only: the bench may read while this writes.
    writeFileSync(`${file}.tmp`, JSON.stringify(probe));
    renameSync(`${file}.tmp`, file);
  };
  write();
  setInterval(write, 250).unref();
}

// BENCH_TRACE: each time this worker's event loop did not turn for over 100 ms (epoch ms, length), to
// `<prefix>.worker-stalls.txt`, beside the emulators' trace of the same runs.
const trace = process.env.BENCH_TRACE;
if (trace) {
  let last = Date.now();
  setInterval(() => {
    const now = Date.now();
    if (now - last > 100) appendFileSync(`${trace}.worker-stalls.txt`, `${last} ${now - last}\n`);
    last = now;
  }, 20).unref();
}
