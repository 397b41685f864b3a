CREATE TABLE "company_settings" (
	"company_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "company_settings_company_id_key_pk" PRIMARY KEY("company_id","key")
);
--> statement-breakpoint
CREATE TABLE "connections" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"kind" text NOT NULL,
	"system_type" integer NOT NULL,
	"credentials_sealed" text NOT NULL,
	"is_emulated" boolean DEFAULT false NOT NULL,
	"last_test_at" timestamp with time zone,
	"last_test_ok" boolean,
	"last_test_message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"shop_connection_id" integer NOT NULL,
	"ettn" text NOT NULL,
	"order_no" text NOT NULL,
	"invoice_no" text NOT NULL,
	"shop_order_id" text NOT NULL,
	"state" text DEFAULT 'received' NOT NULL,
	"attached_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_error_reports" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"job_id" integer NOT NULL,
	"job_type" text NOT NULL,
	"job_run_id" integer NOT NULL,
	"entity_key" text NOT NULL,
	"error_type" text NOT NULL,
	"message" text NOT NULL,
	"payload" jsonb,
	"status" text DEFAULT 'Open' NOT NULL,
	"occurrences" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"job_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"job_type" text NOT NULL,
	"job_name" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'Queued' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"counts" jsonb DEFAULT '{"read":0,"changed":0,"written":0,"failed":0}'::jsonb NOT NULL,
	"calls" jsonb DEFAULT '{"erp":{"read":0,"write":0},"shop":{"read":0,"write":0}}'::jsonb NOT NULL,
	"report" text DEFAULT '' NOT NULL,
	"only_keys" jsonb,
	"lease_owner" text,
	"lease_expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"schedule" jsonb NOT NULL,
	"options" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_run_state" boolean,
	"last_run_date" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"next_run_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"type" text NOT NULL,
	"text" text NOT NULL,
	"is_read" boolean DEFAULT false NOT NULL,
	"source" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "order_ledger" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"shop_connection_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"shop_order_id" text NOT NULL,
	"state" text DEFAULT 'received' NOT NULL,
	"erp_document_id" text,
	"erp_customer_code" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"lock_owner" text,
	"lock_until" timestamp with time zone,
	"order_date" timestamp with time zone NOT NULL,
	"grand_total" double precision DEFAULT 0 NOT NULL,
	"currency" text DEFAULT 'TRY' NOT NULL,
	"shop_updated_at" timestamp with time zone,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone,
	"confirmed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_limit_windows" (
	"key" text PRIMARY KEY NOT NULL,
	"stamps" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"blocked_until" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_cursors" (
	"company_id" integer NOT NULL,
	"stream" text NOT NULL,
	"cursor" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sync_cursors_company_id_stream_pk" PRIMARY KEY("company_id","stream")
);
--> statement-breakpoint
CREATE TABLE "sync_ledger" (
	"connection_id" integer NOT NULL,
	"company_id" integer NOT NULL,
	"entity" text NOT NULL,
	"key" text NOT NULL,
	"external_id" text,
	"hash" text,
	"pushed_at" timestamp with time zone,
	CONSTRAINT "sync_ledger_connection_id_entity_key_pk" PRIMARY KEY("connection_id","entity","key")
);
--> statement-breakpoint
ALTER TABLE "invoice_ledger" ADD CONSTRAINT "invoice_ledger_shop_connection_id_connections_id_fk" FOREIGN KEY ("shop_connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_error_reports" ADD CONSTRAINT "job_error_reports_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_runs" ADD CONSTRAINT "job_runs_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_ledger" ADD CONSTRAINT "order_ledger_shop_connection_id_connections_id_fk" FOREIGN KEY ("shop_connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync_ledger" ADD CONSTRAINT "sync_ledger_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "connections_company_kind_uq" ON "connections" USING btree ("company_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_ledger_ettn_uq" ON "invoice_ledger" USING btree ("shop_connection_id","ettn");--> statement-breakpoint
CREATE UNIQUE INDEX "job_error_reports_open_uq" ON "job_error_reports" USING btree ("company_id","job_type","entity_key") WHERE "job_error_reports"."status" = 'Open';--> statement-breakpoint
CREATE INDEX "job_error_reports_list_idx" ON "job_error_reports" USING btree ("company_id","job_type","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_one_active_uq" ON "job_runs" USING btree ("job_id") WHERE "job_runs"."status" in ('Queued', 'Running');--> statement-breakpoint
CREATE INDEX "job_runs_company_idx" ON "job_runs" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "job_runs_lease_idx" ON "job_runs" USING btree ("lease_expires_at") WHERE "job_runs"."status" = 'Running';--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_company_type_uq" ON "jobs" USING btree ("company_id","type");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("next_run_at") WHERE "jobs"."is_enabled";--> statement-breakpoint
CREATE INDEX "notifications_company_idx" ON "notifications" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_source_uq" ON "notifications" USING btree ("company_id","source");--> statement-breakpoint
CREATE UNIQUE INDEX "order_ledger_shop_order_uq" ON "order_ledger" USING btree ("shop_connection_id","order_no");--> statement-breakpoint
CREATE INDEX "order_ledger_company_date_idx" ON "order_ledger" USING btree ("company_id","order_date");--> statement-breakpoint
CREATE INDEX "order_ledger_state_idx" ON "order_ledger" USING btree ("company_id","state");--> statement-breakpoint
CREATE UNIQUE INDEX "sync_ledger_external_uq" ON "sync_ledger" USING btree ("connection_id","entity","external_id") WHERE "sync_ledger"."external_id" is not null;--> statement-breakpoint
-- The engine's schema lives in packages/engine and cannot name the server's companies table; the
-- foreign keys are declared here so a company's rows go with it.
ALTER TABLE "connections" ADD CONSTRAINT "connections_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "job_runs" ADD CONSTRAINT "job_runs_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "job_error_reports" ADD CONSTRAINT "job_error_reports_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "order_ledger" ADD CONSTRAINT "order_ledger_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;--> statement-breakpoint
ALTER TABLE "company_settings" ADD CONSTRAINT "company_settings_company_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade;
