import { target } from "./base.mjs";

export default target("einvoice", {
  mutate: ["packages/einvoice/src/{amounts,number,profile,ubl}.ts"],
  vitestConfig: "stryker/vitest.einvoice.config.ts",
});
