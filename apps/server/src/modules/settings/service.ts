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
import { type CompanyMappings, DEFAULT_MAPPINGS, engineSchema, JOB_CATALOG, saveMapping } from "@ep/engine";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { recordActivity } from "../activities/repository.ts";
import { connectorFor } from "../connections/connector-factory.ts";
import { findConnection, openCredentials } from "../connections/repository.ts";
import { listLicenses } from "../license/repository.ts";
import { SYSTEMS_OF } from "./connection-service.ts";

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
};
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
    const read = side === "erp" ? ERP_LISTS[list] : SHOP_LISTS[list];
    if (!read) throw AppError.notFound();
    const kind = SYSTEMS_OF[side];
    const row = await findConnection(this.db, companyId, kind);
    if (!row) throw new AppError(409, "connectionSettings.notConnected");
    try {
      const connector = connectorFor(
        this.ctx,
        companyId,
        kind,
        row.systemType,
        openCredentials(this.ctx.credentials, row),
        row.agentId,
      );
      return side === "erp"
        ? await (read as ErpList)(connector as ErpConnector)
        : await (read as ShopList)(connector as ShopConnector);
    } catch (error) {
      this.ctx.logger.warn(
        { companyId, kind, list, reason: error instanceof ConnectorError ? error.reason : "unexpected" },
        "live list failed",
      );
      // A busy or slow system is not a broken connection: say so, so nobody re-tests good settings.
      const busy = error instanceof ConnectorError && error.kind === "transient";
      throw new AppError(409, busy ? "connectionSettings.listBusy" : "connectionSettings.listFailed");
    }
  }
}
