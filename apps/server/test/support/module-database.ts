import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, inject } from "vitest";
import { type Database, openDatabase } from "../../src/platform/db/database.ts";
import { companies } from "../../src/platform/db/schema.ts";

/**
 * A real database for a test of one module without the app: opened before the file's tests (PGlite from
 * the suite's template, or DATABASE_URL), and afterwards the companies made through `company` are removed
 * with all they own (connections, ledgers, invoices cascade) before it closes.
 */
export function moduleDatabase() {
  let database: Database | undefined;
  const companyIds: number[] = [];
  beforeAll(async () => {
    database = await openDatabase({
      databaseUrl: process.env.DATABASE_URL,
      dataDir: "memory",
      memoryTemplate: inject("pgliteTemplate"),
    });
  });
  afterAll(async () => {
    for (const id of companyIds) {
      await database?.db.delete(engineSchema.connections).where(eq(engineSchema.connections.companyId, id));
      await database?.db.delete(companies).where(eq(companies.id, id));
    }
    await database?.close();
  });
  const store = {
    get db() {
      if (!database) throw new Error("moduleDatabase: used before the file's beforeAll");
      return database.db;
    },
    /** A company (with `values` such as seller data) and a shop connection of its own. */
    async company(values: Partial<typeof companies.$inferInsert> = {}) {
      const [c] = await store.db
        .insert(companies)
        .values({ name: "Test A.Ş.", erpType: 1, ecommerceType: 1, ...values })
        .returning({ id: companies.id });
      companyIds.push(c!.id);
      const [shop] = await store.db
        .insert(engineSchema.connections)
        .values({ companyId: c!.id, kind: "shop", systemType: 1, credentialsSealed: "-" })
        .returning({ id: engineSchema.connections.id });
      return { companyId: c!.id, shopConnectionId: shop!.id };
    },
  };
  return store;
}
