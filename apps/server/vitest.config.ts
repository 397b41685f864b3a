import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "src/**/*.test.ts"],
    globalSetup: ["./test/support/pglite-template.ts", "./test/support/server-bundle.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Files in one fork share its loaded modules: each file re-importing Fastify, drizzle and every
    // connector cost about 5 s, a fifth of the suite (9m13s → 7m34s on 2 cores). Tests keep no
    // module-level state between files: each starts its own app and database.
    isolate: false,
    maxWorkers: 2,
  },
});
