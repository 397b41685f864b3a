import { target } from "./base.mjs";

export default target("order-transfer", {
  mutate: ["packages/engine/src/flows/order-transfer.ts"],
  vitestConfig: "stryker/vitest.server.config.ts",
});
