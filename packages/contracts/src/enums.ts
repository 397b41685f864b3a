/** ERP / accounting systems a company can connect, with the numbers the spec fixes (section 3). */
export const ERP_TYPES = [
  { value: 1, label: "Nebim" },
  { value: 2, label: "Netsis" },
  { value: 4, label: "Logo" },
  { value: 11, label: "Logo Tiger" },
  { value: 5, label: "Dia" },
  { value: 6, label: "Wolvox" },
  { value: 10, label: "WolvoxSDK" },
  { value: 7, label: "Microsoft Dynamics AX" },
  { value: 17, label: "Microsoft Dynamics AX Rest API" },
  { value: 8, label: "Uyumsoft" },
  { value: 9, label: "Mikro" },
  { value: 12, label: "Gizsoft" },
  { value: 13, label: "Zirve" },
  { value: 14, label: "Nebim Winner" },
  { value: 15, label: "Eta" },
  { value: 16, label: "Entegra" },
  { value: 18, label: "UyumsoftPortal" },
  { value: 19, label: "LucaPortal" },
  { value: 20, label: "Shopier" },
  { value: 21, label: "Logo Is Basi" },
  { value: 22, label: "LucaNet" },
  { value: 23, label: "LucaKoza" },
  { value: 24, label: "TrendyolEfaturam" },
] as const;

/** E-commerce systems, in the spec's order and numbers. */
export const ECOMMERCE_TYPES = [
  { value: 1, label: "IKAS" },
  { value: 2, label: "Ideasoft" },
  { value: 3, label: "Sentos" },
  { value: 4, label: "Tsoft" },
  { value: 5, label: "Shopify" },
  { value: 6, label: "Sopyo" },
  { value: 7, label: "JetStok" },
] as const;

export const ERP_TYPE_VALUES: readonly number[] = ERP_TYPES.map((t) => t.value);
export const ECOMMERCE_TYPE_VALUES: readonly number[] = ECOMMERCE_TYPES.map((t) => t.value);

/** Licence product types (spec section 3). */
export const ProductType = {
  ErpIntegration: "ErpIntegration",
  ECommerceIntegration: "ECommerceIntegration",
} as const;
export type ProductType = (typeof ProductType)[keyof typeof ProductType];

export const PRODUCT_AREA_JOB_TYPES = [
  "ProductIntegration",
  "PriceIntegration",
  "StockIntegration",
  "ProductUpdate",
  "CategoryIntegration",
] as const;
export const ORDER_AREA_JOB_TYPES = ["OrderIntegration", "InvoiceIntegration"] as const;
export const JOB_TYPES = [...PRODUCT_AREA_JOB_TYPES, ...ORDER_AREA_JOB_TYPES] as const;
export type JobType = (typeof JOB_TYPES)[number];

/** What started a run: its schedule, a user, a retry of failed tasks, a shop's webhook, or a change the stock probe saw in the ERP. */
export const RUN_TRIGGERS = ["schedule", "manual", "retry", "webhook", "change"] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

/** Ticket states (spec section 4). */
export const TicketStatus = { Open: 0, AwaitingAnswer: 1, Answered: 2, Closed: 3 } as const;
export type TicketStatus = (typeof TicketStatus)[keyof typeof TicketStatus];

/** answeredBy value that marks a reply written by the support team. */
export const SUPPORT_ANSWERED_BY = -1;

export const SUPPORTED_LANGUAGES = ["tr", "en", "de", "es", "fr", "ja", "zh"] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "tr";

/**
 * Why a call to an external system failed: the connectors' failure reasons, shared so the panel
 * labels every one of them. Transient ones retry by themselves; permanent ones become failed tasks.
 */
export const TRANSIENT_FAILURE_REASONS = [
  "timeout",
  "network",
  "server_error",
  "rate_limited",
  "lock",
  "blocked",
  "unavailable",
] as const;
/**
 * How a merchant can connect a system today (registration and connection screens say it):
 * directly, through the on-site agent, through a configured SQL / file exchange, through the files the
 * system itself exports and imports (a shop with no API: JetStok), or not yet.
 */
export const SYSTEM_AVAILABILITY = ["available", "agent", "mapping", "files", "soon"] as const;
export type SystemAvailability = (typeof SYSTEM_AVAILABILITY)[number];

/**
 * Failures the engine itself records beside the connectors' reasons: a record whose matching
 * collides with another binding, and anything thrown that is not a connector's error.
 */
export const ENGINE_FAILURE_TYPES = ["binding_conflict", "unexpected"] as const;
export const PERMANENT_FAILURE_REASONS = [
  "auth",
  "validation",
  "not_found",
  "unknown_item",
  "conflict",
  "unsupported",
  "bad_response",
  "config",
] as const;
