import { z } from "zod";
import { JOB_TYPES, RUN_TRIGGERS } from "../enums.ts";
import type { MessageKey } from "../messages/tr.ts";
import { dateParam, idInput, idParam, lineInput, pageNumberParam, pageSizeParam } from "./common.ts";

const err = (key: MessageKey) => ({ error: key });

export const jobTypeSchema = z.enum(JOB_TYPES, err("validation.fieldInvalid"));

/** `{types}` and `jobTypes`: comma-separated job type names (spec section 7). */
export const jobTypeListSchema = lineInput()
  .transform((s) =>
    s
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  )
  .pipe(z.array(jobTypeSchema));

export const jobScheduleSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("interval"),
    minutes: z.number().int().min(1, err("validation.fieldInvalid")).max(10_080),
  }),
  z.object({
    kind: z.literal("cron"),
    expression: lineInput().trim().min(9, err("validation.cronInvalid")).max(100),
  }),
]);
export type JobScheduleDto = z.infer<typeof jobScheduleSchema>;

export const runStatusSchema = z.enum([
  "Queued",
  "Running",
  "Succeeded",
  "PartiallyFailed",
  "Failed",
  "Crashed",
]);
export type RunStatusDto = z.infer<typeof runStatusSchema>;

const countsSchema = z.object({
  read: z.number(),
  changed: z.number(),
  written: z.number(),
  failed: z.number(),
});
const callsSchema = z.object({
  erp: z.object({ read: z.number(), write: z.number() }),
  shop: z.object({ read: z.number(), write: z.number() }),
});

/** A company's integration job as the panel shows it (field names as the spec writes them). */
export const jobSchema = z.object({
  id: z.number().int(),
  type: jobTypeSchema,
  name: z.string(),
  area: z.enum(["product", "order"]),
  /** The sales channel (connection id) the job serves; null: the shop, as every job of the spec. */
  channel_id: z.number().int().nullable().optional(),
  is_enabled: z.boolean(),
  schedule: jobScheduleSchema,
  last_Run_State: z.boolean().nullable(),
  last_run_date: z.string().nullable(),
  last_success_date: z.string().nullable(),
  next_run_date: z.string().nullable(),
  active_run: z
    .object({
      id: z.number().int(),
      status: runStatusSchema,
      counts: countsSchema,
      started_date: z.string().nullable(),
    })
    .nullable(),
});
export type JobDto = z.infer<typeof jobSchema>;

export const updateJobSchema = z.object({
  id: idInput(),
  is_enabled: z.boolean().optional(),
  schedule: jobScheduleSchema.optional(),
});
export type UpdateJobRequest = z.infer<typeof updateJobSchema>;

export const jobHistorySchema = z.object({
  id: z.number().int(),
  jobId: z.number().int(),
  jobType: jobTypeSchema,
  jobName: z.string(),
  trigger: z.enum(RUN_TRIGGERS),
  status: runStatusSchema,
  queued_date: z.string(),
  started_date: z.string().nullable(),
  finished_date: z.string().nullable(),
  counts: countsSchema,
  calls: callsSchema,
});
export type JobHistoryDto = z.infer<typeof jobHistorySchema>;

export const jobHistoryReportSchema = jobHistorySchema.extend({ report: z.string() });
export type JobHistoryReportDto = z.infer<typeof jobHistoryReportSchema>;

/**
 * Which channel's jobs a list shows (issue 37): `shop` (the spec's jobs), a sales channel's connection id,
 * or, absent, every channel together (the total).
 */
export const channelFilterSchema = z.union([z.literal("shop"), idParam()]).optional();
export type ChannelFilter = z.infer<typeof channelFilterSchema>;

export const jobHistoryQuerySchema = z.object({
  channel: channelFilterSchema,
  jobTypes: jobTypeListSchema.optional(),
  startDate: dateParam().optional(),
  endDate: dateParam().optional(),
  pageNumber: pageNumberParam().default(1),
  pageSize: pageSizeParam().default(10),
});

export const jobErrorStatusSchema = z.enum(["Open", "Resolved"]);

export const jobErrorReportSchema = z.object({
  id: z.number().int(),
  jobId: z.number().int(),
  jobType: jobTypeSchema,
  jobRunId: z.number().int(),
  entityKey: z.string(),
  errorType: z.string(),
  message: z.string(),
  payload: z.unknown(),
  status: jobErrorStatusSchema,
  occurrences: z.number().int(),
  created_date: z.string(),
  last_seen_date: z.string(),
  resolved_date: z.string().nullable(),
});
export type JobErrorReportDto = z.infer<typeof jobErrorReportSchema>;

export const jobErrorQuerySchema = z.object({
  channel: channelFilterSchema,
  searchText: lineInput().trim().max(100).optional(),
  status: jobErrorStatusSchema.optional(),
  errorType: lineInput().trim().max(50).optional(),
});

export const jobErrorIdListSchema = z.object({
  jobErrorIdList: z
    .array(idInput(), err("validation.fieldInvalid"))
    .min(1, err("validation.selectAtLeastOne"))
    .max(1000),
});

export const runEventSchema = z.object({
  runId: z.number().int(),
  jobId: z.number().int(),
  jobType: z.string(),
  status: z.string(),
  counts: countsSchema.optional(),
});
export type RunEventDto = z.infer<typeof runEventSchema>;
