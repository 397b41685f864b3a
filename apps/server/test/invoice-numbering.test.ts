import { parseInvoiceNumber } from "@ep/einvoice";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { allocateInvoiceNumber } from "../src/modules/invoices/numbering.ts";
import { invoiceNumberCounters } from "../src/modules/invoices/schema.ts";
import { type Database, openDatabase } from "../src/platform/db/database.ts";
import { companies } from "../src/platform/db/schema.ts";

/**
 * Concurrent allocations never repeat or skip a number, also when some of the transactions roll back.
 * Runs on PGlite, and on PostgreSQL (real concurrency over a pool of connections) when DATABASE_URL is set.
 */

let database: Database;
let companyA: number;
let companyB: number;

beforeAll(async () => {
  database = await openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: "memory",
    memoryTemplate: inject("pgliteTemplate"),
  });
  const rows = await database.db
    .insert(companies)
    .values([
      { name: "Numara A A.Ş.", erpType: 1, ecommerceType: 1 },
      { name: "Numara B Ltd.", erpType: 1, ecommerceType: 1 },
    ])
    .returning({ id: companies.id });
  companyA = rows[0]!.id;
  companyB = rows[1]!.id;
});
afterAll(async () => {
  await database?.db.delete(companies).where(eq(companies.id, companyA));
  await database?.db.delete(companies).where(eq(companies.id, companyB));
  await database?.close();
});

class Rollback extends Error {}

/** Records "invoices" in `workers` concurrent transactions; every `failEvery`-th one rolls back after taking its number. */
async function allocateConcurrently(companyId: number, series: string, workers: number, failEvery: number) {
  const committed: string[] = [];
  let rolledBack = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_x, i) => {
      try {
        const number = await database.db.transaction(async (tx) => {
          const allocated = await allocateInvoiceNumber(tx, { companyId, series, year: 2026 });
          // Give other transactions time to queue on the counter row while this one holds it.
          await new Promise((r) => setTimeout(r, i % 3));
          if (failEvery > 0 && i % failEvery === failEvery - 1) throw new Rollback();
          return allocated.number;
        });
        committed.push(number);
      } catch (error) {
        if (!(error instanceof Rollback)) throw error;
        rolledBack += 1;
      }
    }),
  );
  return { committed, rolledBack };
}

describe(`invoice numbering (${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"})`, () => {
  it("60 concurrent allocations, 12 rolled back: the 48 committed numbers are 1..48, each once", async () => {
    const { committed, rolledBack } = await allocateConcurrently(companyA, "ABC", 60, 5);
    expect(rolledBack).toBe(12);
    const sequences = committed.map((n) => parseInvoiceNumber(n).sequence).sort((a, b) => a - b);
    expect(sequences).toEqual(Array.from({ length: 48 }, (_x, i) => i + 1));
    expect(new Set(committed).size).toBe(committed.length);
    expect(committed).toContain("ABC2026000000001");
    expect(committed).toContain("ABC2026000000048");
  });

  it("counters are per company, series and year", async () => {
    const [b1, b2] = [
      await allocateConcurrently(companyB, "ABC", 3, 0),
      await allocateConcurrently(companyB, "IAD", 2, 0),
    ];
    expect(b1.committed.sort()).toEqual(["ABC2026000000001", "ABC2026000000002", "ABC2026000000003"]);
    expect(b2.committed.sort()).toEqual(["IAD2026000000001", "IAD2026000000002"]);
    const next = await database.db.transaction((tx) =>
      allocateInvoiceNumber(tx, { companyId: companyA, series: "ABC", year: 2027 }),
    );
    expect(next.number).toBe("ABC2027000000001");
    // Company A's 2026 counter was not touched by company B.
    const [rowA] = await database.db
      .select()
      .from(invoiceNumberCounters)
      .where(
        and(
          eq(invoiceNumberCounters.companyId, companyA),
          eq(invoiceNumberCounters.series, "ABC"),
          eq(invoiceNumberCounters.year, 2026),
        ),
      );
    expect(rowA?.lastValue).toBe(48);
  });

  it("refuses a malformed series", async () => {
    await expect(
      database.db.transaction((tx) =>
        allocateInvoiceNumber(tx, { companyId: companyA, series: "ab", year: 2026 }),
      ),
    ).rejects.toThrow(/seri/);
  });
});
