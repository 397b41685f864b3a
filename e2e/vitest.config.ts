import { defineConfig } from "vitest/config";

/**
 * Browser tests: one global setup builds the web app when needed, starts a capturing SMTP
 * server and the real server on a fresh embedded database; files then run one after another.
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
    sequence: { concurrent: false },
    reporters: ["default"],
  },
});
