import { target } from "./base.mjs";

export default target("batch-writer", {
  mutate: ["packages/engine/src/flows/batch-writer.ts"],
  vitestConfig: "stryker/vitest.server.config.ts",
});
