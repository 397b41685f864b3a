import { z } from "zod";

/** One read of a connection check, as the merchant sees it (issue 36); texts are Turkish. */
export const checkOperationViewSchema = z.object({
  operation: z.string(),
  /** "Ürünler", "Stok miktarları" … */
  label: z.string(),
  status: z.enum(["ok", "drift", "untried"]),
  /** "uyumlu", "uyumsuz", "denenemedi". */
  statusText: z.string(),
  /** The enabled jobs that read it (their panel names). */
  jobs: z.array(z.string()),
  /** What differed and what will not work, or why it was not tried. */
  messages: z.array(z.string()),
});
export type CheckOperationView = z.infer<typeof checkOperationViewSchema>;

export const connectionCheckSideSchema = z.object({
  connectionType: z.enum(["erp", "ecommerce"]),
  system: z.string(),
  trigger: z.enum(["save", "daily", "firstSync", "manual"]),
  checkedAt: z.string(),
  /** Calls the check said beforehand it would send at most, and those it sent. */
  plannedCalls: z.number().int(),
  calls: z.number().int(),
  operations: z.array(checkOperationViewSchema),
  /** The merchant chose to start the first transfer despite a difference. */
  proceedAt: z.string().nullable(),
});
export type ConnectionCheckSide = z.infer<typeof connectionCheckSideSchema>;

export const connectionCheckOverviewSchema = z.object({
  erp: connectionCheckSideSchema.nullable(),
  ecommerce: connectionCheckSideSchema.nullable(),
  /** A needed read is "uyumsuz" and the merchant has not chosen to go on: the first transfer waits. */
  firstSyncHeld: z.boolean(),
});
export type ConnectionCheckOverview = z.infer<typeof connectionCheckOverviewSchema>;

/** One group of the support console: a difference across companies, its sample without values. */
export const checkDifferenceGroupSchema = z.object({
  id: z.number().int(),
  system: z.string(),
  operation: z.string(),
  rule: z.string(),
  field: z.string(),
  detail: z.string(),
  sample: z.unknown(),
  verified: z.string(),
  firstSeen: z.string(),
  lastSeen: z.string(),
  companies: z.number().int(),
  notified: z.boolean(),
});
export type CheckDifferenceGroup = z.infer<typeof checkDifferenceGroupSchema>;
