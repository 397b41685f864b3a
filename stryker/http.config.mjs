import { target } from "./base.mjs";

export default target("http", {
  mutate: ["packages/connectors/src/sdk/http.ts"],
  vitestConfig: "stryker/vitest.connectors.config.ts",
});
