import type { PartyAddress, SellerInfo } from "@ep/einvoice";
import { eq } from "drizzle-orm";
import type { Db } from "../../platform/db/database.ts";
import { companies } from "../../platform/db/schema.ts";
import type { Tx } from "../../platform/db/tx-sql.ts";

/** The company settings lack what an e-invoice needs (tax number, tax office or address). */
export class SellerSettingsIncomplete extends Error {}

/**
 * The seller of a company's invoices, from its settings (Ayarlar › Firma). The settings keep the
 * address as one text; inferred: Turkish addresses end in "İlçe/İl" (e.g. "Moda Cad. 12, Kadıköy/İstanbul"),
 * otherwise the last comma-separated part is taken as the city.
 */
export async function sellerFromCompany(db: Db | Tx, companyId: number): Promise<SellerInfo> {
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  if (!company) throw new SellerSettingsIncomplete("Firma bulunamadı");
  const missing = [
    !/^(\d{10}|\d{11})$/.test(company.taxNumber) && "vergi numarası (10 haneli VKN veya 11 haneli TCKN)",
    !company.taxOffice.trim() && "vergi dairesi",
    !company.address.trim() && "adres",
  ].filter(Boolean);
  if (missing.length) throw new SellerSettingsIncomplete(`Firma ayarlarında eksik: ${missing.join(", ")}`);
  return {
    taxNumber: company.taxNumber,
    name: company.name,
    taxOffice: company.taxOffice.trim(),
    address: splitAddress(company.address),
    ...(company.phone ? { phone: company.phone } : {}),
    ...(company.website ? { website: company.website } : {}),
  };
}

export function splitAddress(text: string): PartyAddress {
  const flat = text.replace(/\s+/g, " ").trim();
  const slash = /^(.*?)[,\s]+([^,/]+?)\s*\/\s*([^,/]+?)\s*$/.exec(flat);
  if (slash?.[1] && slash[2] && slash[3])
    return { street: slash[1], district: slash[2], city: slash[3], country: "Türkiye" };
  const parts = flat
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean);
  const city = parts.length > 1 ? (parts.pop() ?? flat) : flat;
  return { street: parts.join(", ") || flat, district: city, city, country: "Türkiye" };
}
