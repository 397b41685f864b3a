import { z } from "zod";
import { JOB_TYPES, SYSTEM_AVAILABILITY } from "../enums.ts";
import type { MessageKey } from "../messages/tr.ts";
import { licenseSchema } from "./account.ts";
import { idInput, lineInput, textInput } from "./common.ts";

const err = (key: MessageKey) => ({ error: key });

/**
 * `{connectionType}` of the connection calls: the ERP side, the shop side, or the optional e-invoice
 * service (Uyumsoft, Trendyol e-Faturam, LucaPortal) that issues the invoices when the ERP does not.
 */
export const CONNECTION_TYPES = ["erp", "ecommerce", "einvoice"] as const;
export const connectionTypeSchema = z.enum(CONNECTION_TYPES, err("validation.fieldInvalid"));
export type ConnectionType = z.infer<typeof connectionTypeSchema>;

/** One field of a system's connection form, as its connector declares it (Turkish label and help). */
export const connectionFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  help: z.string().nullable(),
  secret: z.boolean(),
  required: z.boolean(),
  type: z.enum(["text", "url", "number", "password"]),
  default: z.string().nullable(),
  placeholder: z.string().nullable(),
});
export type ConnectionField = z.infer<typeof connectionFieldSchema>;

/** A system the company can connect (spec section 3 lists), with its form. */
export const connectorInfoSchema = z.object({
  connectionType: connectionTypeSchema,
  productType: z.number().int(),
  name: z.string(),
  implemented: z.boolean(),
  onPremOnly: z.boolean(),
  /** An e-invoice service (Uyumsoft, Trendyol e-Faturam): connected as the ERP, it issues the invoices. */
  einvoice: z.boolean(),
  availability: z.enum(SYSTEM_AVAILABILITY),
  /** What the connection cannot do (Turkish sentences of the connector), e.g. "Sentos yalnızca okur". */
  limitations: z.array(z.string()).optional(),
  /** The API version the connector speaks is past its vendor's end of support (Turkish warning), or null. */
  supportWarning: z.string().nullable().optional(),
  fields: z.array(connectionFieldSchema),
});
export type ConnectorInfo = z.infer<typeof connectorInfoSchema>;

export const connectionTestSchema = z.object({
  ok: z.boolean(),
  /** Turkish result: reachable? credentials accepted? which firm / store answered? */
  message: z.string(),
  testedAt: z.string(),
});
export type ConnectionTest = z.infer<typeof connectionTestSchema>;

/**
 * A connection's status, one source for the API page and the dashboard: the last test or the
 * company's last runs, whichever is newer. `checked_date` is when that evidence was taken.
 */
export const connectionStatusSchema = z.object({
  /** `none`: nothing saved yet (the company never set this side up); `untested`: saved, no evidence yet. */
  state: z.enum(["connected", "failed", "untested", "none"]),
  message: z.string(),
  checked_date: z.string().nullable(),
  source: z.enum(["test", "run"]).nullable(),
});
export type ConnectionStatus = z.infer<typeof connectionStatusSchema>;

/**
 * A saved connection as the panel may see it: plain fields in clear, secret fields only as
 * "set" (never their value), and the last test.
 */
export const connectionViewSchema = z.object({
  /** The stored connection's id (the SQL preview and usage calls name it). */
  id: z.number().int(),
  connectionType: connectionTypeSchema,
  productType: z.number().int(),
  name: z.string(),
  values: z.record(z.string(), z.string()),
  secretsSet: z.array(z.string()),
  isEmulated: z.boolean(),
  /** The on-site agent carrying this connection's calls; null: our server calls the system directly. */
  agentId: z.number().int().nullable(),
  lastTest: connectionTestSchema.nullable(),
  status: connectionStatusSchema,
  updatedAt: z.string(),
});
export type ConnectionView = z.infer<typeof connectionViewSchema>;

/**
 * The last real login saved for a system the company is not (or not really) connected to now: what the
 * form shows when that system is chosen again, or on leaving the sandbox. Secrets only as "set".
 */
export const keptLoginSchema = z.object({
  productType: z.number().int(),
  values: z.record(z.string(), z.string()),
  secretsSet: z.array(z.string()),
  agentId: z.number().int().nullable(),
});
export type KeptLogin = z.infer<typeof keptLoginSchema>;

/**
 * Who issues the company's invoices: its e-invoice service connection (`service`), its "ERP" when that
 * is itself an e-invoice service or portal (`erpService`, e.g. registered with Uyumsoft), or the ERP's
 * own invoices go to the shop (`erp`).
 */
export const INVOICE_ROUTES = ["service", "erpService", "erp"] as const;
export type InvoiceRoute = (typeof INVOICE_ROUTES)[number];

/** Every side of the company: the saved connection (or null) and the type chosen at sign-up. */
export const connectionsOverviewSchema = z.object({
  erp: connectionViewSchema.nullable(),
  ecommerce: connectionViewSchema.nullable(),
  /** The optional e-invoice service (third connection). */
  einvoice: connectionViewSchema.nullable(),
  invoiceRoute: z.enum(INVOICE_ROUTES),
  /** Each side's kept real logins, one per system (the sandbox and system switches erase none). */
  keptLogins: z.object({
    erp: z.array(keptLoginSchema),
    ecommerce: z.array(keptLoginSchema),
    einvoice: z.array(keptLoginSchema),
  }),
  registeredErpType: z.number().int(),
  registeredEcommerceType: z.number().int(),
  connectors: z.array(connectorInfoSchema),
});
export type ConnectionsOverview = z.infer<typeof connectionsOverviewSchema>;

/** Form values; a secret left empty keeps the stored one. */
export const connectionFieldsSchema = z.object({
  fields: z.record(textInput().max(100), textInput().max(2000)),
  /** Through which of the company's agents ("Doğrudan": null); left out keeps the stored choice. */
  agentId: idInput().nullable().optional(),
});
export type ConnectionFieldsRequest = z.infer<typeof connectionFieldsSchema>;

export const connectionSaveResultSchema = z.object({
  connection: connectionViewSchema,
  /** True once both sides are saved and the company's jobs exist. */
  jobsReady: z.boolean(),
});
export type ConnectionSaveResult = z.infer<typeof connectionSaveResultSchema>;

/** A built-in sandbox system and the company's own login to it (shown on the connection form). */
export const sandboxSystemSchema = z.object({
  connectionType: connectionTypeSchema,
  productType: z.number().int(),
  name: z.string(),
  credentials: z.record(z.string(), z.string()),
});
export type SandboxSystemInfo = z.infer<typeof sandboxSystemSchema>;

/** "Deneme sistemlerine bağlan": both sides connected to sandboxes in one call. */
export const sandboxConnectResultSchema = z.object({
  erp: connectionViewSchema,
  ecommerce: connectionViewSchema,
  jobsReady: z.boolean(),
  /** The marketplace sandboxes asked for (issue 37), connected as sales channels beside the shop. */
  channels: z
    .array(
      z.object({
        id: z.number().int(),
        system: z.string(),
        name: z.string(),
        ok: z.boolean(),
        jobsReady: z.boolean(),
      }),
    )
    .optional(),
});

/** Which marketplace sandboxes to connect too (their system keys); none: the shop and ERP only. */
export const sandboxConnectRequestSchema = z
  .object({ channels: z.array(z.string().max(40)).max(10).optional() })
  .nullish();
export type SandboxConnectResult = z.infer<typeof sandboxConnectResultSchema>;

// ---------------------------------------------------------------------------------------------
// Integration settings: one key per engine mapping (what the engine reads on its next run).

const code = lineInput().trim().min(1, err("validation.fieldInvalid")).max(100);
const codeMap = z.record(code, code);

/** Every setting key with its validator; a key not listed here is refused. */
export const settingValueSchemas = {
  erpPriceGroup: code.nullable(),
  shopPriceList: code.nullable(),
  shopPricesIncludeVat: z.boolean(),
  stockLocations: z
    .array(z.object({ shopLocationId: code, erpLocations: z.array(code).max(100) }))
    .max(100)
    .refine((list) => new Set(list.map((l) => l.shopLocationId)).size === list.length, {
      message: "validation.fieldInvalid",
    }),
  minStock: z.number().int().min(0, err("validation.fieldInvalid")).max(1_000_000),
  createMissingProducts: z.boolean(),
  categoryFilter: z.array(lineInput().trim().min(1).max(300)).max(200),
  orderStatusesToTransfer: z.array(code).max(50),
  paymentTypes: codeMap,
  salesChannels: codeMap,
  customerRule: z.discriminatedUnion("kind", [
    z.object({ kind: z.literal("perCustomer") }),
    z.object({ kind: z.literal("singleAccount"), accountCode: code }),
  ]),
  orderWarehouse: code.nullable(),
  orderSeries: lineInput().trim().min(1, err("validation.fieldInvalid")).max(20),
  statusAfterTransfer: code.nullable(),
  priceGuardMaxDropPercent: z.number().min(0, err("validation.fieldInvalid")).max(100),
  stockGuardMaxZeroPercent: z.number().min(0, err("validation.fieldInvalid")).max(100),
} as const;

export type SettingKey = keyof typeof settingValueSchemas;
export const SETTING_KEYS = Object.keys(settingValueSchemas) as SettingKey[];
export type SettingValues = { [K in SettingKey]: z.infer<(typeof settingValueSchemas)[K]> };

/** The setting types (`GET /api/settings/{type}`): one per job type plus stock locations. */
export const SETTING_TYPE_KEYS = {
  ProductIntegration: ["createMissingProducts", "categoryFilter"],
  ProductUpdate: ["categoryFilter"],
  CategoryIntegration: ["categoryFilter"],
  PriceIntegration: ["erpPriceGroup", "shopPriceList", "shopPricesIncludeVat", "priceGuardMaxDropPercent"],
  StockIntegration: ["stockLocations", "minStock", "stockGuardMaxZeroPercent"],
  OrderIntegration: [
    "orderStatusesToTransfer",
    "paymentTypes",
    "salesChannels",
    "customerRule",
    "orderWarehouse",
    "orderSeries",
    "statusAfterTransfer",
  ],
  InvoiceIntegration: [],
  StockLocations: ["stockLocations"],
} as const satisfies Record<string, readonly SettingKey[]>;
export const SETTING_TYPES = Object.keys(SETTING_TYPE_KEYS) as Array<keyof typeof SETTING_TYPE_KEYS>;
export const settingTypeSchema = z.enum(
  SETTING_TYPES as [keyof typeof SETTING_TYPE_KEYS, ...Array<keyof typeof SETTING_TYPE_KEYS>],
  err("validation.fieldInvalid"),
);
export type SettingType = z.infer<typeof settingTypeSchema>;

export const settingSchema = z.object({
  key: z.string(),
  value: z.unknown(),
  /** True when nothing is stored and the engine uses its default. */
  isDefault: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type SettingDto = z.infer<typeof settingSchema>;

/** `POST /api/settings`: each value validated by its key's schema; unknown keys refused. */
export const saveSettingsSchema = z.object({
  settings: z
    .array(z.object({ key: textInput().max(100), value: z.unknown() }))
    .min(1, err("validation.selectAtLeastOne"))
    .max(50),
});
export type SaveSettingsRequest = z.infer<typeof saveSettingsSchema>;

/** An entry of a list read from a live system (statuses, payment types, price groups, depots). */
export const optionSchema = z.object({ id: z.string(), name: z.string() });
export type OptionDto = z.infer<typeof optionSchema>;

export const settingsLayoutSchema = z.object({
  groups: z.array(
    z.object({
      type: z.enum(JOB_TYPES),
      area: z.enum(["product", "order"]),
      keys: z.array(z.string()),
      /** False when the licence this job needs has run out. */
      licensed: z.boolean(),
    }),
  ),
  LicenceInfo: z.array(licenseSchema),
  connections: z.object({ erp: z.boolean(), ecommerce: z.boolean() }),
});
export type SettingsLayout = z.infer<typeof settingsLayoutSchema>;

// ---------------------------------------------------------------------------------------------
// ERP matching: manual links between a shop variant and an ERP item whose codes differ.

const sku = lineInput(err("validation.fieldInvalid"))
  .trim()
  .min(1, err("validation.fieldInvalid"))
  .max(100, err("validation.max100"));

export const erpMatchingSchema = z.object({
  id: z.number().int(),
  erpSku: z.string(),
  shopSku: z.string(),
  shopProductId: z.string(),
  shopVariantId: z.string(),
  created_Date: z.string(),
});
export type ErpMatchingDto = z.infer<typeof erpMatchingSchema>;

export const createErpMatchingSchema = z.object({ erpSku: sku, shopSku: sku });
export type CreateErpMatchingRequest = z.infer<typeof createErpMatchingSchema>;

export const erpMatchingQuerySchema = z.object({ search: lineInput().trim().max(100).optional() });

/** Bulk import: the file's text (CSV, `;` or `,` separated: ERP code, shop code; header optional). */
export const importErpMatchingSchema = z.object({ csv: textInput().min(1).max(2_000_000) });

export const erpMatchingImportRowSchema = z.object({
  row: z.number().int(),
  erpSku: z.string(),
  shopSku: z.string(),
  accepted: z.boolean(),
  /** Why a row was refused, in Turkish; null when accepted. */
  reason: z.string().nullable(),
});
export const erpMatchingImportResultSchema = z.object({
  accepted: z.number().int(),
  refused: z.number().int(),
  rows: z.array(erpMatchingImportRowSchema),
});
export type ErpMatchingImportResult = z.infer<typeof erpMatchingImportResultSchema>;

/** What the next price or stock run would write (nothing is written), with its guard rail. */
export const runPreviewSchema = z.object({
  jobType: z.enum(["PriceIntegration", "StockIntegration"]),
  /** Items the run would write. */
  total: z.number().int(),
  /** Items read from the ERP. */
  read: z.number().int(),
  rows: z.array(
    z.object({
      sku: z.string(),
      location: z.string().nullable(),
      /** What was last written to the shop, when known. */
      before: z.number().nullable(),
      after: z.number(),
    }),
  ),
  /** Price: items falling more than the limit; stock: items going to 0. */
  flagged: z.number().int(),
  limitPercent: z.number(),
  /** True when the run would cross the guard rail: run it only after the user confirms. */
  tripped: z.boolean(),
  message: z.string(),
});
export type RunPreview = z.infer<typeof runPreviewSchema>;

const usageCountsSchema = z.object({ read: z.number().int(), write: z.number().int() });

/**
 * Billable calls of a metered connection (DİA kontör, Logo İşbaşı monthly quota) in the current
 * Istanbul month: the connection card shows "Bu ay: N çağrı (kontör)" or "Kalan kota: okuma X / yazma Y".
 */
export const connectionUsageSchema = z.object({
  connectionId: z.number().int(),
  connectionType: connectionTypeSchema,
  system: z.string(),
  /** "yyyy-MM". */
  month: z.string(),
  kind: z.enum(["credit", "quota"]),
  used: usageCountsSchema,
  /** Credit spent this month (credit systems), in `unit`. */
  credits: z.number().nullable(),
  unit: z.string().nullable(),
  quota: usageCountsSchema.nullable(),
  remaining: usageCountsSchema.nullable(),
});
export type ConnectionUsage = z.infer<typeof connectionUsageSchema>;

/** Model fields each generic SQL query's columns map to (the first list is required). */
export const SQL_MAPPING_FIELDS = {
  products: {
    required: ["sku", "name"],
    optional: ["barcode", "vat", "unit", "brand", "category", "active", "description", "groupKey"],
  },
  stock: { required: ["sku", "warehouse", "quantity"], optional: [] },
  prices: { required: ["sku", "price"], optional: ["currency", "priceGroup", "vatIncluded"] },
  categories: { required: ["id", "name"], optional: ["parentId"] },
  orderLookup: { required: [], optional: ["documentId", "lineNo"] },
} as const;

/** The generic SQL connector's read queries the panel can preview. */
export const SQL_QUERY_NAMES = ["products", "stock", "prices", "categories"] as const;
export const sqlQueryNameSchema = z.enum(SQL_QUERY_NAMES);
export type SqlQueryName = z.infer<typeof sqlQueryNameSchema>;

/** "Önizle": a configured query (the saved one, or the form's unsaved configuration) run with a row cap. */
export const sqlPreviewRequestSchema = z.object({
  query: sqlQueryNameSchema,
  /** The form's configuration (JSON), when it differs from the saved one. */
  sqlConfig: z.string().max(200_000).optional(),
});

const sqlCellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const sqlPreviewSchema = z.object({
  /** Turkish reason when the query could not run (bad configuration, database error, no agent). */
  error: z.string().nullable(),
  columns: z.array(z.string()),
  rows: z.array(z.record(z.string(), sqlCellSchema)),
  /** Each row's mapping: the model record, or the Turkish reasons it is rejected. */
  mapped: z.array(
    z.object({
      ok: z.boolean(),
      key: z.string().nullable(),
      value: z.record(z.string(), z.unknown()).nullable(),
      errors: z.array(z.string()),
    }),
  ),
  /** Mapped columns the result does not have. */
  mappingErrors: z.array(z.string()),
  truncated: z.boolean(),
});
export type SqlPreview = z.infer<typeof sqlPreviewSchema>;

/** A file of products, stock or prices checked row by row (the file exchange of the mapping systems). */
export const FILE_IMPORT_KINDS = ["products", "stock", "prices"] as const;
const fileRowOutcomeSchema = z.object({
  row: z.number().int(),
  key: z.string(),
  accepted: z.boolean(),
  reasons: z.array(z.string()),
});
export const fileImportResultSchema = z.object({
  /** The kept file (the sync reads the latest accepted one per kind); `duplicate`: the same file was kept before. */
  importId: z.number().int(),
  status: z.enum(["imported", "duplicate"]),
  /** Whether the next sync reads this file (it has accepted rows and is the latest of its kind). */
  usedForSync: z.boolean(),
  columns: z.array(z.string()),
  accepted: z.number().int(),
  rejected: z.number().int(),
  rows: z.array(
    z.object({ row: z.number().int(), key: z.string(), accepted: z.boolean(), reasons: z.array(z.string()) }),
  ),
});
export type FileImportResult = z.infer<typeof fileImportResultSchema>;

/** A kept file: a products / stock / prices file in (panel or agent), or an orders file out (the sync). */
export const fileImportItemSchema = z.object({
  id: z.number().int(),
  kind: z.enum(["products", "stock", "prices", "orders"]),
  fileName: z.string(),
  source: z.enum(["panel", "agent", "sync"]),
  rowsAccepted: z.number().int(),
  rowsRejected: z.number().int(),
  uploadedAt: z.string(),
  /** Orders file: when the agent put it into its outbox folder. */
  deliveredAt: z.string().nullable(),
  /** In: whether the next sync reads it (the latest accepted file of its kind). */
  usedForSync: z.boolean(),
});
export type FileImportItem = z.infer<typeof fileImportItemSchema>;

/**
 * A products / stock / prices file deleted: what the next sync of that kind reads now, the next-newest
 * accepted file, or (`nextFile` null) the configured query.
 */
export const fileImportDeletedSchema = z.object({
  id: z.number().int(),
  kind: z.enum(FILE_IMPORT_KINDS),
  nextFile: z.object({ id: z.number().int(), fileName: z.string() }).nullable(),
});
export type FileImportDeleted = z.infer<typeof fileImportDeletedSchema>;

/** One page of a kept file's per-row results. */
export const fileImportRowsSchema = z.object({
  total: z.number().int(),
  rows: z.array(fileRowOutcomeSchema),
});

/** A watched folder of one of the company's agents, as the agent last reported it. */
export const watchedFolderSchema = z.object({
  agentId: z.number().int(),
  machineName: z.string(),
  online: z.boolean(),
  path: z.string(),
  kind: z.enum(FILE_IMPORT_KINDS),
  outbox: z.string().nullable(),
  readable: z.boolean(),
  lastFile: z.string().nullable(),
  lastResult: z.string().nullable(),
  lastAt: z.string().nullable(),
});
export type WatchedFolder = z.infer<typeof watchedFolderSchema>;

export const fileExchangeOverviewSchema = z.object({
  imports: z.array(fileImportItemSchema),
  orders: z.array(fileImportItemSchema),
  folders: z.array(watchedFolderSchema),
  /** A file shop's (JetStok's) stock and price file: when its values last changed and how many rows. */
  stockFile: z.object({ updatedAt: z.string(), rows: z.number().int() }).nullable().optional(),
});
export type FileExchangeOverview = z.infer<typeof fileExchangeOverviewSchema>;

/** The shop connection's order webhooks (GET /api/webhooks/status). */
export interface WebhookStatus {
  /** The shop system publishes order webhooks we can register and verify. */
  supported: boolean;
  registered: boolean;
  registeredAt: string | null;
  lastDeliveryAt: string | null;
  topics: string[];
  lastError: string | null;
}
