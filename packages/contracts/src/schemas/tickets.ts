import { z } from "zod";
import { TicketStatus } from "../enums.ts";
import type { MessageKey } from "../messages/tr.ts";
import { dateTimeInput, INT4_MAX, idParam, lineInput, textInput } from "./common.ts";
import { runStatusSchema } from "./jobs.ts";

const err = (key: MessageKey) => ({ error: key });

/** Spec section 4: 0 Açık, 1 Cevap Bekliyor, 2 Cevaplandı, 3 Kapatıldı. */
export const TICKET_STATUSES = Object.values(TicketStatus);
/** Spec section 9: an answered ticket with no customer reply closes itself after this long. */
export const TICKET_AUTO_CLOSE_MS = 24 * 60 * 60 * 1000;
export const TICKET_ATTACHMENT_MAX_BYTES = 5 * 1024 * 1024;
export const TICKET_ATTACHMENT_MAX_COUNT = 5;
export const TICKET_ATTACHMENT_TYPES = [
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "application/pdf",
];

export const ticketStatusSchema = z.coerce
  .number()
  .int()
  .refine(
    (n): n is TicketStatus => (TICKET_STATUSES as number[]).includes(n),
    err("validation.fieldInvalid"),
  );

export const ticketCategorySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  parentId: z.number().int().nullable(),
});
export type TicketCategory = z.infer<typeof ticketCategorySchema>;

export const ticketAttachmentSchema = z.object({
  id: z.number().int(),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number().int(),
});
export type TicketAttachment = z.infer<typeof ticketAttachmentSchema>;

export const ticketReplySchema = z.object({
  id: z.number().int(),
  message: z.string(),
  /** The customer's user id, or -1 for the support team. */
  answeredBy: z.number().int(),
  answeredByName: z.string(),
  created_Date: z.string(),
  attachments: z.array(ticketAttachmentSchema),
});
export type TicketReply = z.infer<typeof ticketReplySchema>;

export const ticketSchema = z.object({
  id: z.number().int(),
  subject: z.string(),
  status: z.number().int(),
  category: ticketCategorySchema.nullable(),
  parentCategory: ticketCategorySchema.nullable(),
  created_Date: z.string(),
  updated_Date: z.string(),
  closed_Date: z.string().nullable(),
  /** Set when the ticket was opened from a job run or a failed task. */
  jobRunId: z.number().int().nullable(),
  jobErrorReportId: z.number().int().nullable(),
  account: z.object({
    id: z.number().int(),
    first_Name: z.string(),
    last_Name: z.string(),
    email: z.string(),
  }),
  ticketReplies: z.array(ticketReplySchema),
});
export type Ticket = z.infer<typeof ticketSchema>;

const optionalId = z.preprocess(
  (v) => (v === "" || v === null || v === "null" ? undefined : v),
  idParam().optional(),
);

/** The create form's fields (multipart form fields or a JSON body). */
export const createTicketSchema = z.object({
  categoryId: z.coerce
    .number({ error: "tickets.categoryRequired" })
    .int()
    .positive(err("tickets.categoryRequired"))
    .max(INT4_MAX, err("request.idOutOfRange")),
  subject: lineInput({ error: "tickets.subjectRequired" })
    .trim()
    .min(1, err("tickets.subjectRequired"))
    .min(3, err("validation.min3"))
    .max(150, err("tickets.subjectMax")),
  message: textInput({ error: "tickets.messageRequired" })
    .trim()
    .min(1, err("tickets.messageRequired"))
    .max(5000, err("tickets.messageMax")),
  jobRunId: optionalId,
  jobErrorReportId: optionalId,
});
export type CreateTicketInput = z.infer<typeof createTicketSchema>;

export const ticketReplyInputSchema = z.object({
  ticketId: idParam(),
  message: textInput({ error: "tickets.messageRequired" })
    .trim()
    .min(1, err("tickets.messageRequired"))
    .max(5000, err("tickets.messageMax")),
});
export type TicketReplyInput = z.infer<typeof ticketReplyInputSchema>;

export const ticketListQuerySchema = z.object({
  /** `desc` (newest first, the default) or `asc`; other spellings such as `created_date desc` are read too. */
  orderBy: lineInput()
    .max(50)
    .optional()
    .transform((v): "asc" | "desc" => (v && /asc/i.test(v) && !/desc/i.test(v) ? "asc" : "desc")),
  searchKey: lineInput().trim().max(100).optional(),
  status: z.preprocess(
    (v) => (v === "" || v === undefined || v === "-1" || v === "null" ? undefined : v),
    ticketStatusSchema.optional(),
  ),
});
export type TicketListQuery = z.infer<typeof ticketListQuerySchema>;

/* ---------- Support console ---------- */

export const supportTicketSchema = ticketSchema.extend({
  company: z.object({ id: z.number().int(), name: z.string() }),
  lastSupportReply_Date: z.string().nullable(),
  closedBy: z.string().nullable(),
});
export type SupportTicket = z.infer<typeof supportTicketSchema>;

/** A job run as the console lists it. */
export const runSummarySchema = z.object({
  id: z.number().int(),
  jobName: z.string(),
  jobType: z.string(),
  status: runStatusSchema,
  queued_Date: z.string(),
  finished_Date: z.string().nullable(),
});

export const supportTicketDetailSchema = supportTicketSchema.extend({
  run: runSummarySchema.extend({ report: z.string() }).nullable(),
  failedTask: z
    .object({
      id: z.number().int(),
      jobType: z.string(),
      entityKey: z.string(),
      errorType: z.string(),
      message: z.string(),
      payload: z.unknown(),
      status: z.string(),
    })
    .nullable(),
});
export type SupportTicketDetail = z.infer<typeof supportTicketDetailSchema>;

export const supportCompanySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  created_Date: z.string(),
  userEmail: z.string().nullable(),
  connections: z.array(
    z.object({
      kind: z.string(),
      systemType: z.number().int(),
      lastTestOk: z.boolean().nullable(),
      lastTest_Date: z.string().nullable(),
      lastTestMessage: z.string().nullable(),
    }),
  ),
  lastRuns: z.array(runSummarySchema),
  failedTaskCount: z.number().int(),
  openTicketCount: z.number().int(),
  licenses: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      productType: z.string(),
      isTrial: z.boolean(),
      expire_date: z.string(),
    }),
  ),
});
export type SupportCompany = z.infer<typeof supportCompanySchema>;

export const supportLicenseUpdateSchema = z
  .object({
    extendDays: z.coerce.number().int().min(1, err("validation.fieldInvalid")).max(3650).optional(),
    expiresAt: dateTimeInput().optional(),
    isTrial: z.boolean().optional(),
  })
  .refine((v) => v.extendDays !== undefined || v.expiresAt !== undefined || v.isTrial !== undefined, {
    error: "validation.fieldInvalid",
  });
export type SupportLicenseUpdate = z.infer<typeof supportLicenseUpdateSchema>;

export const announcementSchema = z.object({
  id: z.number().int(),
  created_date: z.string(),
  type: z.string(),
  content: z.string(),
});
export type Announcement = z.infer<typeof announcementSchema>;

export const createAnnouncementSchema = z.object({
  type: lineInput({ error: "tickets.announcementTypeRequired" })
    .trim()
    .min(1, err("tickets.announcementTypeRequired"))
    .max(30),
  content: textInput({ error: "tickets.announcementContentRequired" })
    .trim()
    .min(1, err("tickets.announcementContentRequired"))
    .max(1000, err("tickets.messageMax")),
  date: dateTimeInput().optional(),
});
export type CreateAnnouncementInput = z.infer<typeof createAnnouncementSchema>;

export const supportActionSchema = z.object({
  id: z.number().int(),
  action: z.string(),
  supportUser: z.string(),
  companyId: z.number().int().nullable(),
  ticketId: z.number().int().nullable(),
  details: z.unknown(),
  created_Date: z.string(),
});
export type SupportAction = z.infer<typeof supportActionSchema>;
