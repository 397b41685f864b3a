// Shared Stryker options for `npm run test:mutation` (issue #41). One config per target, run one after
// another by stryker/run.mjs; every run is incremental (the file under reports/mutation/, gitignored)
// and uses one test process: the CI box has two cores shared with other work.
export function target(name, { mutate, vitestConfig, ...rest }) {
  return {
    $schema: "../node_modules/@stryker-mutator/core/schema/stryker-schema.json",
    testRunner: "vitest",
    plugins: ["@stryker-mutator/vitest-runner"],
    vitest: { configFile: vitestConfig, related: true },
    mutate,
    // Every test that imports a target (vitest's `related`), measured per test, static mutants too.
    coverageAnalysis: "perTest",
    ignoreStatic: false,
    concurrency: 1,
    incremental: true,
    incrementalFile: `reports/mutation/${name}.incremental.json`,
    // The JSON report comes only at the end; the event recorder writes each tested mutant as it goes, so a
    // run stopped early (hours on a loaded box) still says what it measured (stryker/README.md).
    reporters: ["clear-text", "progress-append-only", "json", "event-recorder"],
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    eventReporter: { baseDir: `reports/mutation/${name}.events` },
    clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
    tempDirName: ".stryker-tmp",
    cleanTempDir: "always",
    // The repository's .gitignore entries (anchored where a source folder has the same name:
    // apps/server/src/modules/reports).
    ignorePatterns: [
      "/reports/mutation",
      "/.stryker-tmp",
      "dist/",
      "data/",
      "coverage/",
      "test-results/",
      ".tmp/",
    ],
    // The server targets' dry run took 13 min 37 s for the issuer's 54 tests at load 30: Stryker's default
    // of 5 minutes failed it.
    dryRunTimeoutMinutes: 60,
    timeoutMS: 20_000,
    timeoutFactor: 2,
    thresholds: { high: 90, low: 85, break: null },
    ...rest,
  };
}
