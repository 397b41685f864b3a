import { ConnectorError, type ErpConnector, type ShopConnector } from "@ep/connectors";
import {
  type ConnectionType,
  type FieldError,
  JOB_TYPES,
  type JobType,
  message,
  type OptionDto,
  PRODUCT_AREA_JOB_TYPES,
  SETTING_TYPE_KEYS,
  type SettingDto,
  type SettingKey,
  type SettingsLayout,
  type SettingType,
  type SettingValues,
  settingValueSchemas,
} from "@ep/contracts";
import {
  type CompanyMappings,
  categoryKey,
  DEFAULT_MAPPINGS,
  engineSchema,
  JOB_CATALOG,
  saveMapping,
} from "@ep/engine";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { recordActivity } from "../activities/repository.ts";
import { connectorFor } from "../connections/connector-factory.ts";
import { findConnection, openCredentials } from "../connections/repository.ts";
import { listLicenses } from "../license/repository.ts";

// The settings API stores exactly what the engine reads: the two shapes must stay the same.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const mappingsMatchSettings: Same<SettingValues, CompanyMappings> = true;
void mappingsMatchSettings;

const isSettingKey = (key: string): key is SettingKey => Object.hasOwn(settingValueSchemas, key);

/** Lists a live system answers, by the spec's list names. */
type ErpList = (erp: ErpConnector) => Promise<OptionDto[]>;
type ShopList = (shop: ShopConnector) => Promise<OptionDto[]>;
const options = <T extends { id: string; name: string }>(list: T[]): OptionDto[] =>
  list.map((o) => ({ id: o.id, name: o.name }));

export const ERP_LISTS: Record<string, ErpList> = {
  "depo-list": async (erp) => options(await erp.listStockLocations()),
  "price-group-list": async (erp) => options(await erp.listPriceGroups()),
  "category-list": erpCategoryPaths,
};

/**
 * Every ERP category as its path (id and name both the path the engine keys categories by, the way
 * products carry it). An ERP that keeps no category list answers none (the panel then takes a typed path).
 */
async function erpCategoryPaths(erp: ErpConnector): Promise<OptionDto[]> {
  const paths = new Set<string>();
  let pageToken: string | undefined;
  try {
    do {
      const page = await erp.listCategories({ pageToken, pageSize: erp.descriptor.batch.page });
      for (const c of page.items) if (c.path.length > 0) paths.add(categoryKey(c.path));
      pageToken = page.nextPageToken;
    } while (pageToken);
  } catch (error) {
    if (error instanceof ConnectorError && error.reason === "unsupported") return [];
    throw error;
  }
  return [...paths].sort(new Intl.Collator("tr-TR").compare).map((p) => ({ id: p, name: p }));
}
export const SHOP_LISTS: Record<string, ShopList> = {
  "depo-list": async (shop) => options(await shop.listStockLocations()),
  "price-group-list": async (shop) => options(await shop.listPriceLists()),
  "order-status-list": async (shop) => options(await shop.listOrderStatuses()),
  "payment-type-list": async (shop) => options(await shop.listPaymentTypes()),
  "sales-channel-list": async (shop) => options(await shop.listSalesChannels()),
};

/** Integration settings (spec section 7 "Settings"): the engine's mappings, read and written per key. */
export class SettingsService {
  constructor(private readonly ctx: AppContext) {}

  private get db() {
    return this.ctx.database.db;
  }

  private async stored(companyId: number) {
    const rows = await this.db
      .select()
      .from(engineSchema.companySettings)
      .where(eq(engineSchema.companySettings.companyId, companyId));
    return new Map(rows.map((r) => [r.key, r]));
  }

  async byKeys(companyId: number, keys: readonly string[]): Promise<SettingDto[]> {
    const unknown = keys.filter((k) => !isSettingKey(k));
    if (unknown.length > 0) {
      throw AppError.validation(
        unknown.map((k) => ({ field: k, message: message("connectionSettings.unknownSetting") })),
      );
    }
    const stored = await this.stored(companyId);
    return (keys as SettingKey[]).map((key) => {
      const row = stored.get(key);
      return {
        key,
        value: row ? row.value : DEFAULT_MAPPINGS[key],
        isDefault: !row,
        updatedAt: row?.updatedAt ? row.updatedAt.toISOString() : null,
      };
    });
  }

  byType = (companyId: number, type: SettingType) => this.byKeys(companyId, SETTING_TYPE_KEYS[type]);

  /** Validates every entry by its key (unknown keys refused) and stores all or nothing. */
  async save(
    companyId: number,
    userId: number,
    settings: Array<{ key: string; value: unknown }>,
  ): Promise<SettingDto[]> {
    const errors: FieldError[] = [];
    const parsed: Array<{ key: SettingKey; value: unknown }> = [];
    settings.forEach(({ key, value }, i) => {
      if (!isSettingKey(key)) {
        errors.push({ field: `settings.${i}.key`, message: message("connectionSettings.unknownSetting") });
        return;
      }
      const result = settingValueSchemas[key].safeParse(value);
      if (result.success) parsed.push({ key, value: result.data });
      else errors.push({ field: `settings.${i}.value`, message: message("validation.fieldInvalid") });
    });
    if (errors.length > 0) throw AppError.validation(errors);
    await this.db.transaction(async (tx) => {
      for (const { key, value } of parsed) {
        await saveMapping(tx, companyId, key, value as CompanyMappings[typeof key]);
      }
    });
    const keys = [...new Set(parsed.map((p) => p.key))];
    const jobNames = JOB_TYPES.filter((t) =>
      (SETTING_TYPE_KEYS[t] as readonly string[]).some((k) => keys.includes(k as SettingKey)),
    ).map((t) => JOB_CATALOG[t].name);
    await recordActivity(this.db, {
      companyId,
      userId,
      action: "settingsSaved",
      detail: jobNames.join(", "),
    });
    return this.byKeys(companyId, keys);
  }

  async layout(companyId: number): Promise<SettingsLayout> {
    const now = this.ctx.clock.now();
    const licences = await listLicenses(this.db, companyId, now);
    const licensed = licences.every((l) => new Date(l.expire_date) >= now);
    const [erp, shop] = await Promise.all([
      findConnection(this.db, companyId, "erp"),
      findConnection(this.db, companyId, "shop"),
    ]);
    return {
      groups: JOB_TYPES.map((type: JobType) => ({
        type,
        area: (PRODUCT_AREA_JOB_TYPES as readonly string[]).includes(type) ? "product" : "order",
        keys: [...SETTING_TYPE_KEYS[type]],
        licensed,
      })),
      LicenceInfo: licences,
      connections: { erp: !!erp, ecommerce: !!shop },
    };
  }

  /** One list read from the company's connected system (statuses, payment types, depots…). */
  async liveList(companyId: number, side: ConnectionType, list: string): Promise<OptionDto[]> {
    // The e-invoice service keeps no lists the settings read.
    if (side === "einvoice") throw AppError.notFound();
    if (side === "erp") {
      const read = ERP_LISTS[list];
      if (!read) throw AppError.notFound();
      return readLive(this.ctx, companyId, "erp", list, read);
    }
    const read = SHOP_LISTS[list];
    if (!read) throw AppError.notFound();
    return readLive(this.ctx, companyId, "shop", list, read);
  }
}

/**
 * A read from the company's connected ERP or shop for a screen. A system that cannot be read answers 409
 * with why: a busy or slow system is not a broken connection, so nobody re-tests good settings.
 */
export async function readLive<K extends "erp" | "shop", T>(
  ctx: AppContext,
  companyId: number,
  kind: K,
  what: string,
  read: (connector: K extends "erp" ? ErpConnector : ShopConnector) => Promise<T>,
): Promise<T> {
  const row = await findConnection(ctx.database.db, companyId, kind);
  if (!row) throw new AppError(409, "connectionSettings.notConnected");
  try {
    const connector = connectorFor(
      ctx,
      companyId,
      kind,
      row.systemType,
      openCredentials(ctx.credentials, row),
      row.agentId,
    );
    return await read(connector as K extends "erp" ? ErpConnector : ShopConnector);
  } catch (error) {
    ctx.logger.warn(
      { companyId, kind, list: what, reason: error instanceof ConnectorError ? error.reason : "unexpected" },
      "live list failed",
    );
    const busy = error instanceof ConnectorError && error.kind === "transient";
    throw new AppError(409, busy ? "connectionSettings.listBusy" : "connectionSettings.listFailed");
  }
}
