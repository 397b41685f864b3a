/**
 * Sales report Excel export of 100,000 orders (issue 12, defect 1): wall time and memory of
 * `salesWorkbookStream`, the code behind GET /api/SalesReport/export, written to a file.
 *
 *   npm run bench:export -w @ep/bench
 *
 * Environment:
 *   BENCH_ORDERS   orders in the range (default 100000)
 *   DATABASE_URL   use a fresh database on this PostgreSQL server (default: PGlite in a temp dir)
 *
 * Memory: peak RSS and heap sampled every 20 ms during the export, against what the process held
 * just before it (the seeded database is in this process on PGlite). The file is then read back with
 * exceljs' streaming reader: its row count must be the order count plus header and Toplam.
 */
import { randomBytes } from "node:crypto";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { engineSchema } from "@ep/engine";
import { saveConnection } from "@ep/server/connections";
import { CredentialCipher } from "@ep/server/credentials";
import { openDatabase } from "@ep/server/database";
import { salesWorkbookStream } from "@ep/server/sales-export";
import { companies } from "@ep/server/schema";
import ExcelJS from "exceljs";
import { freshPostgres } from "./postgres.ts";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 100_000);
const MB = 1024 * 1024;

async function main() {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const pg = await freshPostgres(process.env.DATABASE_URL);
    let database: Awaited<ReturnType<typeof openDatabase>>;
    if (pg) {
      cleanups.push(() => pg.drop());
      database = await openDatabase({ databaseUrl: pg.url });
      console.log(`Database: PostgreSQL, fresh database ${pg.name}`);
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), "ep-bench-export-"));
      cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
      database = await openDatabase({ dataDir });
      console.log(`Database: PGlite in ${dataDir}`);
    }
    cleanups.unshift(() => database.close());
    const db = database.db;

    // --- seed (not timed): one company, its shop connection, ORDERS orders over a year ---
    const [company] = await db
      .insert(companies)
      .values({ name: "Bench A.Ş.", erpType: 9, ecommerceType: 1 })
      .returning();
    if (!company) throw new Error("no company");
    const cipher = new CredentialCipher(new Map([["k1", randomBytes(32)]]), "k1");
    const shop = await saveConnection(db, cipher, {
      companyId: company.id,
      kind: "shop",
      systemType: 1,
      credentials: { baseUrl: "http://127.0.0.1:1" },
    });
    const start = Date.UTC(2026, 0, 1);
    const span = 365 * 86_400_000;
    let t = performance.now();
    let expectedCents = 0;
    for (let i = 0; i < ORDERS; i += 2000) {
      const rows = [];
      for (let j = i; j < Math.min(i + 2000, ORDERS); j++) {
        const total = Math.round((50 + ((j * 7919) % 500_000) / 100) * 100) / 100;
        expectedCents += Math.round(total * 100);
        rows.push({
          companyId: company.id,
          shopConnectionId: shop.id,
          orderNo: `B-${j + 1}`,
          shopOrderId: `B-${j + 1}`,
          orderDate: new Date(start + Math.floor((j / ORDERS) * span)),
          grandTotal: total,
          state: "confirmed" as const,
          payload: { customer: { firstName: "Ayşe", lastName: `Yılmaz ${j % 1000}` } },
        });
      }
      await db.insert(engineSchema.orderLedger).values(rows);
    }
    console.log(`Seeded ${ORDERS} orders in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    // --- the export ---
    const outDir = mkdtempSync(join(tmpdir(), "ep-bench-xlsx-"));
    cleanups.push(async () => rmSync(outDir, { recursive: true, force: true }));
    const file = join(outDir, "satis-raporu.xlsx");
    globalThis.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 20);
    t = performance.now();
    await pipeline(
      salesWorkbookStream(db, company.id, { from: null, to: null }, (e) => {
        throw e;
      }),
      createWriteStream(file),
    );
    const seconds = (performance.now() - t) / 1000;
    clearInterval(sampler);
    const size = statSync(file).size;
    console.log(
      `Export: ${ORDERS} rows in ${seconds.toFixed(2)} s (${Math.round(ORDERS / seconds)} rows/s), ` +
        `file ${(size / MB).toFixed(1)} MB`,
    );
    console.log(
      `Memory during export: RSS ${(before.rss / MB).toFixed(0)} → peak ${(peakRss / MB).toFixed(0)} MB ` +
        `(+${((peakRss - before.rss) / MB).toFixed(0)} MB); heap ${(before.heapUsed / MB).toFixed(0)} → ` +
        `peak ${(peakHeap / MB).toFixed(0)} MB (+${((peakHeap - before.heapUsed) / MB).toFixed(0)} MB); ` +
        `process maxRSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
    );
    console.log(`Ratio: file size / rows = ${(size / ORDERS).toFixed(0)} bytes a row`);

    // --- check: every row is in the file, and the Toplam matches ---
    let rows = 0;
    let cents = 0;
    let totalCell: unknown;
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {});
    for await (const sheet of reader) {
      for await (const row of sheet) {
        rows++;
        const first = row.getCell(1).value;
        const amount = row.getCell(5).value;
        if (first === "Toplam") totalCell = amount;
        else if (typeof amount === "number") cents += Math.round(amount * 100);
      }
    }
    const ok = rows === ORDERS + 2 && cents === expectedCents;
    console.log(
      `Check: ${rows} rows read back (header + ${rows - 2} orders + Toplam), sum ${cents / 100}, ` +
        `Toplam ${JSON.stringify(totalCell)}: ${ok ? "OK" : "MISMATCH"}`,
    );
    if (!ok) process.exitCode = 1;
  } finally {
    for (const c of cleanups) await c().catch((e) => console.error("cleanup:", e));
  }
}

await main();
