import { target } from "./base.mjs";

export default target("sync-ledger", {
  mutate: ["packages/engine/src/ledger/sync-ledger.ts"],
  vitestConfig: "stryker/vitest.server.config.ts",
});
