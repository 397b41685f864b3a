import { target } from "./base.mjs";

export default target("invoice-issuer", {
  // The issuer was one file (issue.ts) until issue 38 split it by step; the ranges in README.md are of that file.
  mutate: [
    "apps/server/src/modules/invoices/{issue,eligibility,prepare,documents,route-returns,send,follow-up}.ts",
  ],
  vitestConfig: "stryker/vitest.server.config.ts",
});
