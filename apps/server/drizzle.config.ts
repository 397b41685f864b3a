import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: [
    "./src/platform/db/schema.ts",
    "./src/modules/*/schema.ts",
    "../../packages/engine/src/store/schema.ts",
  ],
  out: "./drizzle",
});
