import { z } from "zod";
import type { MessageKey } from "../messages/tr.ts";
import { lineInput } from "./common.ts";
import { connectionFieldSchema, connectionTestSchema } from "./settings.ts";

const err = (key: MessageKey) => ({ error: key });

/**
 * Sales channels (issue 37): the marketplaces a company sells on beside its shop (Trendyol,
 * Hepsiburada…). Each is a connection of its own with its own jobs; the shop keeps its screens.
 */

/** A marketplace the company can connect, with its connection form. */
export const channelSystemSchema = z.object({
  system: z.string(),
  name: z.string(),
  fields: z.array(connectionFieldSchema),
  /** A built-in sandbox of this marketplace exists ("Deneme sistemlerine bağlan"). */
  sandbox: z.boolean(),
});
export type ChannelSystemInfo = z.infer<typeof channelSystemSchema>;

const percent = z.number().min(0, err("validation.fieldInvalid")).max(100, err("validation.fieldInvalid"));
const units = z.number().int(err("validation.fieldInvalid")).min(0, err("validation.fieldInvalid")).max(1e9);

/** A channel's settings: its share of the stock pool, its price rule and where its orders go in the ERP. */
export const channelSettingsSchema = z.object({
  safety: z.union([z.object({ units }).strict(), z.object({ percent }).strict()]).optional(),
  weight: z.number().min(0, err("validation.fieldInvalid")).max(1000).optional(),
  priceRule: z
    .object({
      markupPercent: z
        .number()
        .min(-90, err("validation.fieldInvalid"))
        .max(1000, err("validation.fieldInvalid")),
      rounding: z.enum(["none", "90", "99"], err("validation.fieldInvalid")),
      minimum: z.number().min(0, err("validation.fieldInvalid")).max(10_000_000).optional(),
    })
    .strict()
    .optional(),
  // One-line text the database can hold (no control characters, no broken surrogates), as every name.
  orderSeries: lineInput().trim().min(1).max(20, err("validation.fieldInvalid")).optional(),
  orderStatuses: z.array(lineInput().trim().min(1).max(50)).max(30).optional(),
  orderPrefix: lineInput().trim().min(1).max(8, err("validation.fieldInvalid")).optional(),
  /** The channel's orders get e-invoices like the shop's (absent: as the shop's, on). */
  invoices: z.boolean().optional(),
});
export type ChannelSettingsDto = z.infer<typeof channelSettingsSchema>;

/** One connected channel as the panel shows it (credentials never leave the server). */
export const channelSchema = z.object({
  id: z.number().int(),
  system: z.string(),
  name: z.string(),
  isEmulated: z.boolean(),
  lastTest: connectionTestSchema.nullable(),
  settings: channelSettingsSchema,
  /** The channel's jobs (stock, price, orders) exist: its ERP is connected and its test passed once. */
  jobsReady: z.boolean(),
});
export type ChannelDto = z.infer<typeof channelSchema>;

export const addChannelSchema = z.object({
  system: z.string().trim().min(1, err("validation.fieldInvalid")).max(40),
  fields: z.record(z.string().max(100), z.string().max(4000)),
  settings: channelSettingsSchema.optional(),
});
export type AddChannelRequest = z.infer<typeof addChannelSchema>;
