// `npm run test:mutation [target…]`: runs Stryker over each target, one after another (not in CI: minutes
// per target), then prints target | score | survived | no coverage from the JSON reports.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const targets = {
  einvoice: "packages/einvoice (amounts, number, profile, ubl)",
  "sync-ledger": "packages/engine sync ledger",
  "batch-writer": "packages/engine batch writer",
  http: "packages/connectors/src/sdk/http.ts",
  "order-transfer": "packages/engine order transfer",
  "invoice-issuer": "apps/server invoice issuer",
};
const chosen = process.argv.slice(2);
for (const name of chosen)
  if (!(name in targets)) throw new Error(`unknown target ${name}: ${Object.keys(targets)}`);
const run = chosen.length > 0 ? chosen : Object.keys(targets);
// MUTATION_TABLE_ONLY=1: the table from the last reports, without running; MUTATION_LIST=1: and each
// surviving / uncovered mutant (file:line, mutator, replacement).
const onlyTable = process.env.MUTATION_TABLE_ONLY === "1";
const list = process.env.MUTATION_LIST === "1";

const failed = [];
if (!onlyTable)
  for (const name of run) {
    console.log(`== ${name}`);
    const r = spawnSync(
      process.execPath,
      [join(root, "node_modules/@stryker-mutator/core/bin/stryker.js"), "run", `stryker/${name}.config.mjs`],
      { cwd: root, stdio: "inherit" },
    );
    if (r.status !== 0) failed.push(name);
  }

const DETECTED = new Set(["Killed", "Timeout"]);
const rows = run.map((name) => {
  const file = join(root, "reports/mutation", `${name}.json`);
  if (!existsSync(file)) return `| ${targets[name]} | not run | | |`;
  const files = Object.entries(JSON.parse(readFileSync(file, "utf8")).files);
  const mutants = files.flatMap(([, f]) => f.mutants);
  if (list)
    for (const [path, f] of files)
      for (const m of f.mutants.filter((x) => x.status === "Survived" || x.status === "NoCoverage"))
        console.log(
          `${m.status} ${path}:${m.location.start.line}:${m.location.start.column} ${m.mutatorName}: ${JSON.stringify(m.replacement)}`,
        );
  const count = (s) => mutants.filter((m) => m.status === s).length;
  const detected = mutants.filter((m) => DETECTED.has(m.status)).length;
  const valid = detected + count("Survived") + count("NoCoverage");
  const score = valid === 0 ? "n/a" : `${((100 * detected) / valid).toFixed(1)} %`;
  return `| ${targets[name]} | ${score} | ${count("Survived")} | ${count("NoCoverage")} |`;
});
console.log(["| target | score | survived | no coverage |", "|---|---|---|---|", ...rows].join("\n"));
if (failed.length > 0) {
  console.error(`Stryker failed for: ${failed.join(", ")}`);
  process.exit(1);
}
