-- Issue 37: one ERP, many sales channels. A marketplace channel is a connection of kind 'channel' named by
-- its system key (one per company and system) with its own settings; the shop keeps its row and its jobs.
-- Jobs of a channel carry its connection (null: the shop's, as every existing job), and failed tasks are
-- kept per job, so each channel has its own. Nothing existing changes: the shop's rows keep their keys.
ALTER TABLE "connections" ADD COLUMN "system_key" text;
--> statement-breakpoint
ALTER TABLE "connections" ADD COLUMN "settings" jsonb DEFAULT '{}'::jsonb NOT NULL;
--> statement-breakpoint
DROP INDEX "connections_company_kind_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "connections_company_kind_uq" ON "connections" USING btree ("company_id","kind") WHERE "connections"."kind" <> 'channel';
--> statement-breakpoint
CREATE UNIQUE INDEX "connections_company_channel_uq" ON "connections" USING btree ("company_id","system_key") WHERE "connections"."kind" = 'channel';
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "connection_id" integer REFERENCES "connections"("id") ON DELETE CASCADE;
--> statement-breakpoint
DROP INDEX "jobs_company_type_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_company_type_uq" ON "jobs" USING btree ("company_id","type") WHERE "jobs"."connection_id" is null;
--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_channel_type_uq" ON "jobs" USING btree ("connection_id","type") WHERE "jobs"."connection_id" is not null;
--> statement-breakpoint
DROP INDEX "job_error_reports_open_uq";
--> statement-breakpoint
CREATE UNIQUE INDEX "job_error_reports_open_uq" ON "job_error_reports" USING btree ("job_id","entity_key") WHERE "job_error_reports"."status" = 'Open';
