import { eq } from "drizzle-orm";
import type { Executor } from "../db.ts";
import { companySettings } from "../store/schema.ts";

/**
 * How the engine translates between a company's ERP and shop. Stored per key in
 * `company_settings`; every missing key falls back to the default below, so a company with no
 * settings screen visited yet still syncs sensibly.
 */
export type CompanyMappings = {
  /** ERP price group whose prices feed the shop; null = the ERP's default group. */
  erpPriceGroup: string | null;
  /** Shop price list to write; null = the shop's default list. */
  shopPriceList: string | null;
  /** Whether the shop's prices include KDV (IKAS, like most Turkish shops: yes). */
  shopPricesIncludeVat: boolean;
  /** Which ERP warehouses add up into which shop stock location; empty = all into the first one. */
  stockLocations: Array<{ shopLocationId: string; erpLocations: string[] }>;
  /** Quantities below this are sent as 0, so the shop never sells the last unreliable units. */
  minStock: number;
  /** ProductIntegration creates products missing in the shop (false: only binds existing ones). */
  createMissingProducts: boolean;
  /** Only products under these category paths ("Elektronik > Telefon"); empty = all. */
  categoryFilter: string[];
  /** Shop order statuses that are transferred to the ERP; empty = all but cancelled ones. */
  orderStatusesToTransfer: string[];
  /** Shop payment type → ERP payment code. Unmapped types go through with the shop's own name. */
  paymentTypes: Record<string, string>;
  /** Shop sales channel → ERP sales channel / document series. */
  salesChannels: Record<string, string>;
  /** Customer account rule: one ERP account per shop customer, or all orders on one account. */
  customerRule: { kind: "perCustomer" } | { kind: "singleAccount"; accountCode: string };
  /** ERP warehouse orders are sold from; null = the ERP's first warehouse. */
  orderWarehouse: string | null;
  /** ERP document series for web orders. */
  orderSeries: string;
  /** Shop status to set once an order is in the ERP; null = leave the status alone. */
  statusAfterTransfer: string | null;
  /** Guard rail of the price preview: a price falling by more than this percentage needs a confirmation. */
  priceGuardMaxDropPercent: number;
  /** Guard rail of the stock preview: more than this share (%) of the read items set to 0 needs a confirmation. */
  stockGuardMaxZeroPercent: number;
};

export const DEFAULT_MAPPINGS: CompanyMappings = {
  erpPriceGroup: null,
  shopPriceList: null,
  shopPricesIncludeVat: true,
  stockLocations: [],
  minStock: 0,
  createMissingProducts: true,
  categoryFilter: [],
  orderStatusesToTransfer: [],
  paymentTypes: {},
  salesChannels: {},
  customerRule: { kind: "perCustomer" },
  orderWarehouse: null,
  orderSeries: "WEB",
  statusAfterTransfer: null,
  priceGuardMaxDropPercent: 30,
  stockGuardMaxZeroPercent: 20,
};

export const MAPPING_KEYS = Object.keys(DEFAULT_MAPPINGS) as Array<keyof CompanyMappings>;

/**
 * A sales channel's view of the company's mappings (issue 37): what names the ERP side (price group,
 * customer rule, payment and channel codes, series, warehouse, minimum stock) stays the company's; what
 * names the shop side (its price list and VAT display, its stock locations, its order statuses) means
 * nothing to a marketplace, so the channel's own settings or the defaults apply there.
 */
export function channelMappings(
  mappings: CompanyMappings,
  channel: { settings: { orderStatuses?: string[] } },
): CompanyMappings {
  return {
    ...mappings,
    shopPriceList: null,
    shopPricesIncludeVat: true,
    stockLocations: [],
    orderStatusesToTransfer: channel.settings.orderStatuses ?? [],
    statusAfterTransfer: null,
  };
}

export async function loadMappings(db: Executor, companyId: number): Promise<CompanyMappings> {
  const rows = await db.select().from(companySettings).where(eq(companySettings.companyId, companyId));
  const stored = Object.fromEntries(rows.map((r) => [r.key, r.value]));
  const out: Record<string, unknown> = { ...DEFAULT_MAPPINGS };
  for (const key of MAPPING_KEYS) if (key in stored) out[key] = stored[key];
  return out as CompanyMappings;
}

export async function saveMapping<K extends keyof CompanyMappings>(
  db: Executor,
  companyId: number,
  key: K,
  value: CompanyMappings[K],
) {
  await db
    .insert(companySettings)
    .values({ companyId, key, value, updatedAt: new Date() })
    .onConflictDoUpdate({
      target: [companySettings.companyId, companySettings.key],
      set: { value, updatedAt: new Date() },
    });
}
