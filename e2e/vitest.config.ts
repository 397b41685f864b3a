import { defineConfig } from "vitest/config";

/**
 * Browser tests: one global setup builds the web app when needed, starts a capturing SMTP
 * server and the real server on a fresh embedded database; files then run one after another.
 * `npm test` runs two shards side by side (`--shard=1/2`, `--shard=2/2`), each with a server of its own.
 */
export default defineConfig({
  test: {
    include: ["tests/**/*.e2e.test.ts"],
    globalSetup: ["./support/global-setup.ts"],
    testTimeout: 60_000,
    // A browser waits on a real server (argon2, the demo's jobs on the same embedded database):
    // vitest's 1 s default for expect.poll is a race, not a check.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    hookTimeout: 240_000,
    fileParallelism: false,
    maxWorkers: 1,
    // The files share one process's loaded modules (Playwright, vitest's own): each file importing them
    // afresh cost 3 s of a loaded box, about 80 s of the suite. A file keeps its state in its own
    // scope (its browser, its emulators), started and stopped by its hooks.
    isolate: false,
    sequence: { concurrent: false },
    reporters: ["default"],
  },
});
