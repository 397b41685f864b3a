import { z } from "zod";
import type { MessageKey } from "../messages/tr.ts";

const err = (key: MessageKey) => ({ error: key });

/** Days between a deletion request and the deletion itself (KVKK grace period). */
export const DELETION_GRACE_DAYS = 30;
export const EXPORT_FORMATS = ["json", "xlsx"] as const;

/** Confirmation step of a deletion request: the current password and an explicit yes. */
export const deletionRequestSchema = z.object({
  password: z.string(err("validation.passwordRequired")).min(1, err("validation.passwordRequired")).max(200),
  confirm: z.literal(true, err("privacy.confirmRequired")),
});
export type DeletionRequestInput = z.infer<typeof deletionRequestSchema>;

export const deletionStatusSchema = z.object({
  id: z.number().int(),
  status: z.enum(["pending", "cancelled", "completed"]),
  requested_Date: z.string(),
  due_Date: z.string(),
  cancelled_Date: z.string().nullable(),
});
export type DeletionStatus = z.infer<typeof deletionStatusSchema>;

/** The support console's row of a pending deletion. */
export const supportDeletionSchema = z.object({
  id: z.number().int(),
  companyId: z.number().int(),
  companyName: z.string(),
  requestedBy: z.string().nullable(),
  requested_Date: z.string(),
  due_Date: z.string(),
  daysLeft: z.number().int(),
});
export type SupportDeletion = z.infer<typeof supportDeletionSchema>;
