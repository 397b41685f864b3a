import { target } from "./base.mjs";

export default target("invoice-issuer", {
  mutate: ["apps/server/src/modules/invoices/issue.ts"],
  vitestConfig: "stryker/vitest.server.config.ts",
});
