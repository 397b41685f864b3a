import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { writePgliteTemplate } from "../../src/platform/db/database.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, empty PGlite database dump that every in-memory database of this run starts from. */
    pgliteTemplate: string;
  }
}

/** Global setup: initdb and the migrations once per run, instead of once per test file. */
export default async function setup(project: TestProject) {
  const dir = mkdtempSync(join(tmpdir(), "ep-pglite-template-"));
  const file = join(dir, "template.tar");
  await writePgliteTemplate(file);
  project.provide("pgliteTemplate", file);
  return () => rmSync(dir, { recursive: true, force: true });
}
