// The house rules that imports must keep (issue 38), checked in CI by `npm run lint`. The ground floors
// (the server's platform/, the connectors' SDK, the shared packages) never import the rooms above them,
// and nothing imports in a circle, type-only imports included: a circle of types is still a circle to read.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment:
        "An import circle: break it by moving the shared part down, or by an interface the lower file owns.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "platform-not-to-rooms",
      comment: "The server's platform/ defines what it needs; modules implement it (see server-context.ts).",
      severity: "error",
      from: { path: "^apps/server/src/platform/" },
      to: { path: "^apps/server/src/(modules/|app\\.ts|bootstrap\\.ts|server-context\\.ts)" },
    },
    {
      name: "sdk-not-to-systems",
      comment: "The connectors' SDK knows no system: a system lives in its own folder and registers itself.",
      severity: "error",
      from: { path: "^packages/connectors/src/sdk/", pathNot: "\\.test\\.ts$" },
      to: { path: "^packages/connectors/src/(?!sdk/|testing/)[^/]+/" },
    },
    {
      name: "packages-not-to-apps",
      comment: "The shared packages are below every app.",
      severity: "error",
      from: { path: "^packages/", pathNot: "\\.test\\.ts$|/emulator/" },
      to: { path: "^apps/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "node_modules|/dist/|\\.stryker-tmp" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
