/**
 * Does recover-password take as long for an unknown address as for a known one? Prints the p50
 * and p90 of each and their ratio (1.00 = indistinguishable):
 *   node --import tsx apps/server/scripts/recover-timing.ts [rounds]   (DATABASE_URL for PostgreSQL)
 * Requests alternate known/unknown, each from its own client address (so the per-address limit
 * never answers 429 here); workers are off, so only the request's own work is timed.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../src/app.ts";
import { closeContext, createContext } from "../src/bootstrap.ts";
import { loadConfig } from "../src/config.ts";

const rounds = Number(process.argv[2] ?? 300);
const config = loadConfig({
  ...process.env,
  DATA_DIR: mkdtempSync(join(tmpdir(), "ep-recover-")),
  LOG_LEVEL: "silent",
  CAPTCHA: "off",
  DEMO: "0",
});
const ctx = await createContext(config, {
  dataDirOverride: config.databaseUrl ? undefined : "memory",
  workers: false,
});
const app = await buildApp(ctx);
const known = `olcum.${Date.now()}@example.com`;
const registered = await app.inject({
  method: "POST",
  url: "/api/account/register",
  payload: {
    company_Name: "Ölçüm Ticaret",
    email: known,
    password: "Guclu.Parola1",
    first_Name: "Ayşe",
    last_Name: "Yılmaz",
    phone: "05321234567",
    erpType: 9,
    ecommerceType: 1,
  },
});
if (registered.statusCode !== 200) throw new Error(`register failed: ${registered.body}`);

async function timed(email: string, n: number): Promise<number> {
  const started = process.hrtime.bigint();
  const res = await app.inject({
    method: "POST",
    url: `/api/account/recover-password?email=${encodeURIComponent(email)}`,
    remoteAddress: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
  });
  if (res.statusCode !== 200) throw new Error(`answered ${res.statusCode}: ${res.body}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const knownMs: number[] = [];
const unknownMs: number[] = [];
for (let i = 0; i < 20; i++) await timed(i % 2 ? known : `warm${i}@example.com`, 100_000 + i); // warm-up
for (let i = 0; i < rounds; i++) {
  knownMs.push(await timed(known, 2 * i));
  unknownMs.push(await timed(`hic.kimse.${i}@example.com`, 2 * i + 1));
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!;
const row = (name: string, xs: number[]) =>
  console.log(`${name.padEnd(8)} p50 ${pct(xs, 0.5).toFixed(2)} ms   p90 ${pct(xs, 0.9).toFixed(2)} ms`);
console.log(`recover-password, ${rounds} requests each, ${ctx.database.kind}`);
row("known", knownMs);
row("unknown", unknownMs);
console.log(`ratio known/unknown at p50: ${(pct(knownMs, 0.5) / pct(unknownMs, 0.5)).toFixed(2)}`);
await app.close();
await closeContext(ctx);
