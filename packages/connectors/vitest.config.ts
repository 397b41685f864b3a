import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Most of a contract test is waiting on an emulator's socket: two files at a time on a 2-core CI box
    // (vitest's default there is one), sharing loaded modules per worker: 138 s → 56 s.
    maxWorkers: 2,
    isolate: false,
  },
});
