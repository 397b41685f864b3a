// Vitest settings for mutation runs only (stryker/*.config.mjs). Each target's config extends the
// workspace's own vitest config and adds two things:
// - `@ep/*` resolve to this copy of the repository: in Stryker's sandbox, node_modules is a symlink to
//   the real one, whose `@ep/*` links lead to the unmutated sources.
// - the quickest test files run first, so a mutant a unit test kills never waits for the schematron
//   or database suites (vitest's default runs the slowest first).
import { readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { mergeConfig, type ViteUserConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

const workspaces = [
  "packages/connectors",
  "packages/contracts",
  "packages/einvoice",
  "packages/engine",
  "apps/agent",
  "apps/server",
];

/** `@ep/name[/sub]` → the file its package.json exports, inside this copy of the repository. */
function workspaceAliases(): { find: string; replacement: string }[] {
  return workspaces.flatMap((dir) => {
    const pkg = JSON.parse(readFileSync(join(repoRoot, dir, "package.json"), "utf8")) as {
      name: string;
      exports: Record<string, string>;
    };
    return Object.entries(pkg.exports)
      .map(([sub, file]) => ({ find: join(pkg.name, sub), replacement: join(repoRoot, dir, file) }))
      .sort((a, b) => b.find.length - a.find.length);
  });
}

class QuickestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cost = (f: TestSpecification) => {
      const key = `${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`;
      return this.ctx.cache.getFileTestResults(key)?.duration ?? this.ctx.cache.getFileStats(key)?.size ?? 0;
    };
    return [...files].sort((a, b) => cost(a) - cost(b));
  }
}

/**
 * `MUTATION_TEST_FILES=a.test.ts,b.test.ts` narrows a run to those files (paths from the workspace):
 * quicker while writing tests. A narrowed score is a lower bound of the full one (more tests can only
 * kill more mutants); the table of record comes from the full run.
 */
export function forMutation(workspace: string, base: ViteUserConfig): ViteUserConfig {
  const config = mergeConfig(base, {
    root: join(repoRoot, workspace),
    resolve: { alias: workspaceAliases() },
    test: { sequence: { sequencer: QuickestFirst } },
  });
  const only = process.env.MUTATION_TEST_FILES?.split(",").filter(Boolean);
  if (only?.length && config.test) config.test.include = only;
  return config;
}
