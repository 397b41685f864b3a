ALTER TABLE "job_runs" ADD COLUMN "failure_side" text;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "failure_reason" text;--> statement-breakpoint
DROP INDEX IF EXISTS "job_runs_company_idx";--> statement-breakpoint
CREATE INDEX "job_runs_company_idx" ON "job_runs" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "job_runs_job_finished_idx" ON "job_runs" USING btree ("job_id","finished_at" DESC) WHERE "job_runs"."finished_at" is not null;--> statement-breakpoint
CREATE INDEX "job_error_reports_open_job_idx" ON "job_error_reports" USING btree ("job_id") WHERE "job_error_reports"."status" = 'Open';--> statement-breakpoint
CREATE INDEX "job_error_reports_seen_idx" ON "job_error_reports" USING btree ("company_id","job_type","last_seen_at","id");--> statement-breakpoint
DROP INDEX IF EXISTS "notifications_company_idx";--> statement-breakpoint
CREATE INDEX "notifications_company_idx" ON "notifications" USING btree ("company_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("company_id") WHERE "notifications"."is_read" = false;
