import type { License } from "@ep/contracts";
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { licenses } from "../../platform/db/schema.ts";

export async function listLicenses(db: Db, companyId: number, now: Date): Promise<License[]> {
  const rows = await db.select().from(licenses).where(eq(licenses.companyId, companyId)).orderBy(licenses.id);
  return rows.map((l) => ({
    id: l.id,
    license_name: l.name,
    license_description: l.description,
    product_type: l.productType,
    image_file_name: l.imageFileName,
    expire_date: l.expiresAt.toISOString(),
    days_left: Math.max(0, Math.ceil((l.expiresAt.getTime() - now.getTime()) / 86_400_000)),
    is_trial: l.isTrial,
  }));
}
