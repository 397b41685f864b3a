CREATE TABLE "connection_checks" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"system_type" integer NOT NULL,
	"system" text NOT NULL,
	"trigger" text NOT NULL,
	"planned_calls" integer NOT NULL,
	"calls" integer NOT NULL,
	"operations" jsonb NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"proceed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "connection_checks_company_kind_uq" ON "connection_checks" USING btree ("company_id","kind");
--> statement-breakpoint
CREATE TABLE "check_differences" (
	"id" serial PRIMARY KEY NOT NULL,
	"system" text NOT NULL,
	"operation" text NOT NULL,
	"rule" text NOT NULL,
	"field" text NOT NULL,
	"detail" text NOT NULL,
	"sample" jsonb NOT NULL,
	"verified" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"notified_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "check_differences_group_uq" ON "check_differences" USING btree ("system","operation","rule");
--> statement-breakpoint
CREATE TABLE "check_difference_companies" (
	"difference_id" integer NOT NULL REFERENCES "check_differences"("id") ON DELETE CASCADE,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"last_seen" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "check_difference_companies_uq" ON "check_difference_companies" USING btree ("difference_id","company_id");
--> statement-breakpoint
CREATE INDEX "check_difference_companies_company_idx" ON "check_difference_companies" USING btree ("company_id");
