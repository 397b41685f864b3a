import { z } from "zod";
import { JOB_TYPES } from "../enums.ts";
import type { MessageKey } from "../messages/tr.ts";
import { dateParam, idInput, pageNumberParam, pageSizeParam, textInput } from "./common.ts";
import { jobSchema } from "./jobs.ts";
import { connectionStatusSchema, INVOICE_ROUTES } from "./settings.ts";

const err = (key: MessageKey) => ({ error: key });

/** Every user action the server records; each has its text under `activity.<action>`. */
export const ACTIVITY_ACTIONS = [
  "signIn",
  "settingsSaved",
  "connectionChanged",
  "jobEnabled",
  "jobDisabled",
  "jobScheduleChanged",
  "jobRun",
  "failedTasksDeleted",
  "fileImportDeleted",
  "failedTasksRetried",
  "ticketCreated",
  "ticketReplied",
  "ticketClosed",
  "profileUpdated",
  "companyUpdated",
  "passwordChanged",
  "erpMatchingChanged",
  "retentionChanged",
  "custom",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

export const activitySchema = z.object({
  id: z.number().int(),
  action: z.enum(ACTIVITY_ACTIONS),
  detail: z.string(),
  activity_Description: z.string(),
  created_Date: z.string(),
  user: z.object({ first_Name: z.string(), last_Name: z.string() }).nullable(),
});
export type ActivityDto = z.infer<typeof activitySchema>;

export const activityQuerySchema = z.object({
  startDate: dateParam().optional(),
  endDate: dateParam().optional(),
});

/** POST /api/activity: the panel notes an action of its own. */
export const createActivitySchema = z.object({
  activity_Description: textInput(err("validation.fieldInvalid"))
    .trim()
    .min(1, err("validation.fieldInvalid"))
    .max(300, err("validation.fieldInvalid")),
});

export const notificationSchema = z.object({
  id: z.number().int(),
  is_Read: z.boolean(),
  type: z.enum(["Info", "Error"]),
  notification_Text: z.string(),
  created_Date: z.string(),
  /** The panel screen it opens (a ticket answer: that ticket), or null. */
  link: z.string().nullable().optional(),
});
export type NotificationDto = z.infer<typeof notificationSchema>;

export const markAsReadSchema = z
  .array(idInput(), err("validation.fieldInvalid"))
  .min(1, err("validation.selectAtLeastOne"))
  .max(1000);

export const timePeriodSchema = z.enum(["weekly", "monthly"], err("validation.fieldInvalid"));

export const dailySalesSchema = z.object({ created_date: z.string(), amount: z.number() });
export type DailySalesDto = z.infer<typeof dailySalesSchema>;

const integrationReportSchema = z.object({
  description: z.string(),
  jobType: z.enum(JOB_TYPES),
  last_run_date: z.string().nullable(),
  last_Run_State: z.boolean().nullable(),
});

/** One job's freshness: how far the shop is behind the ERP now. */
export const freshnessSchema = z.object({
  jobId: z.number().int(),
  jobType: z.enum(JOB_TYPES),
  name: z.string(),
  is_enabled: z.boolean(),
  last_success_date: z.string().nullable(),
  /** The job's last run of any outcome, or null while it waits for its first run. */
  last_run_date: z.string().nullable(),
  /** Records found changed but not yet written (open failed tasks for the job). */
  waiting: z.number().int(),
  /** The sales channel of the job (issue 37); null: the shop. */
  channel_id: z.number().int().nullable().optional(),
});

export const dashboardSchema = z.object({
  productIntegrationReport: integrationReportSchema,
  stockIntegrationReport: integrationReportSchema,
  priceIntegrationReport: integrationReportSchema,
  orderIntegrationReport: integrationReportSchema,
  licences: z.array(
    z.object({
      license_name: z.string(),
      license_description: z.string(),
      product_type: z.string(),
      image_file_name: z.string(),
      expire_date: z.string(),
    }),
  ),
  erpapiConnectionStatus: z.boolean(),
  eCommerceAPIConnectionStatus: z.boolean(),
  connectionMessages: z.object({ erp: z.string().nullable(), eCommerce: z.string().nullable() }),
  connectionStatuses: z.object({ erp: connectionStatusSchema, eCommerce: connectionStatusSchema }),
  /** The on-site agent the ERP connection goes through (its status shows on the card), or null. */
  erpAgentId: z.number().int().nullable(),
  /** The e-invoice service card: who issues the invoices, through which system, and its status. */
  einvoiceService: z.object({
    route: z.enum(INVOICE_ROUTES),
    system: z.string().nullable(),
    status: connectionStatusSchema.nullable(),
  }),
  failedJobReports: z.array(
    z.object({
      jobName: z.string(),
      jobType: z.enum(JOB_TYPES),
      failedOperationCount: z.number().int(),
      /** Counted up to a limit: the job has at least this many (the failed-task page pages the rest). */
      failedOperationCountAtLeast: z.boolean(),
      /** The sales channel of the job (issue 37); null: the shop. */
      channel_id: z.number().int().nullable().optional(),
      jobId: z.number().int().optional(),
    }),
  ),
  lastAnnouncements: z.array(z.object({ created_date: z.string(), type: z.string(), content: z.string() })),
  companyJobs: z.array(jobSchema),
  freshness: z.array(freshnessSchema),
  /** The marketplace sales channels beside the shop (issue 37): the dashboard's channel selector. */
  channels: z
    .array(
      z.object({ id: z.number().int(), system: z.string(), name: z.string(), ok: z.boolean().nullable() }),
    )
    .optional(),
});
export type DashboardDto = z.infer<typeof dashboardSchema>;

export const salesReportQuerySchema = z.object({
  pageNumber: pageNumberParam().default(1),
  pageSize: pageSizeParam().default(10),
  startDate: dateParam().optional(),
  endDate: dateParam().optional(),
});

export const salesReportRowSchema = z.object({
  id: z.number().int(),
  orderNo: z.string(),
  order_date: z.string(),
  customer: z.string(),
  state: z.string(),
  grand_total: z.number(),
  currency: z.string(),
});
export type SalesReportRowDto = z.infer<typeof salesReportRowSchema>;

export const salesReportSchema = z.object({
  dataList: z.array(salesReportRowSchema),
  totalCount: z.number().int(),
  pageNumber: z.number().int(),
  pageSize: z.number().int(),
  totalAmount: z.number(),
});
export type SalesReportDto = z.infer<typeof salesReportSchema>;

export const runStatisticsSchema = z.array(
  z.object({
    jobType: z.enum(JOB_TYPES),
    name: z.string(),
    runs: z.number().int(),
    failures: z.number().int(),
    written: z.number().int(),
    failed: z.number().int(),
  }),
);
export type RunStatisticsDto = z.infer<typeof runStatisticsSchema>;
