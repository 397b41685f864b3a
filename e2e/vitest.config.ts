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
    hookTimeout: 240_000,
    fileParallelism: false,
    maxWorkers: 1,
    sequence: { concurrent: false },
    reporters: ["default"],
  },
});
