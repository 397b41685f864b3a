CREATE TABLE "company_deletions" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" integer,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"cancelled_by" integer,
	"cancelled_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"removed" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "company_deletions_pending_uq" ON "company_deletions" USING btree ("company_id") WHERE "company_deletions"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "company_deletions_status_due_idx" ON "company_deletions" USING btree ("status","due_at");
