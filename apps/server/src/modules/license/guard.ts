import { message, ProductType } from "@ep/contracts";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { licenses } from "../../platform/db/schema.ts";

/** A job needs both licences; answers the refusal text when one has run out, else null. */
export async function expiredLicenceReason(
  db: Db,
  companyId: number,
  jobName: string,
  now: Date,
): Promise<string | null> {
  const [expired] = await db
    .select({ name: licenses.name, productType: licenses.productType })
    .from(licenses)
    .where(and(eq(licenses.companyId, companyId), lt(licenses.expiresAt, now)));
  if (!expired || !(Object.values(ProductType) as string[]).includes(expired.productType)) return null;
  return message("engine.runRefusedLicence", { job: jobName, licence: expired.name });
}
