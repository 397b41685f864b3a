/**
 * The company the in-process benches measure: registered through the app, Mikro (9) as its ERP and the
 * given shop connected (the shop marked tested, so its jobs run) and its jobs created.
 */

import { randomBytes } from "node:crypto";
import { engineSchema, ensureCompanyJobs } from "@ep/engine";
import type { buildApp } from "@ep/server/app";
import type { createContext } from "@ep/server/bootstrap";
import { saveConnection } from "@ep/server/connections";
import { eq } from "drizzle-orm";

type Ctx = Awaited<ReturnType<typeof createContext>>;
type App = Awaited<ReturnType<typeof buildApp>>;

/** The new company's id. */
export async function benchCompany(
  ctx: Ctx,
  app: App,
  erp: { credentials: Record<string, string> },
  shop: { type: number; credentials: Record<string, string> },
): Promise<number> {
  const reg = await app.inject({
    method: "POST",
    url: "/api/account/register",
    payload: {
      company_Name: "Bench Ticaret",
      email: `bench.${randomBytes(4).toString("hex")}@example.com`,
      password: "Guclu.Parola1",
      first_Name: "Ayşe",
      last_Name: "Yılmaz",
      phone: "05321234567",
      erpType: 9,
      ecommerceType: shop.type,
    },
  });
  const companyId = (reg.json() as { data: { company: { id: number } } }).data.company.id;
  const db = ctx.database.db;
  await saveConnection(db, ctx.credentials, {
    companyId,
    kind: "erp",
    systemType: 9,
    credentials: { ...erp.credentials },
  });
  const shopRow = await saveConnection(db, ctx.credentials, {
    companyId,
    kind: "shop",
    systemType: shop.type,
    credentials: { ...shop.credentials },
  });
  const { connections } = engineSchema;
  await db.update(connections).set({ lastTestOk: true }).where(eq(connections.id, shopRow.id));
  await ensureCompanyJobs(db, companyId, new Date());
  return companyId;
}
