CREATE TABLE "invoice_number_counters" (
	"company_id" integer NOT NULL,
	"series" text NOT NULL,
	"year" integer NOT NULL,
	"last_value" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_number_counters_pk" PRIMARY KEY("company_id","series","year"),
	CONSTRAINT "invoice_number_counters_series_ck" CHECK ("series" ~ '^[A-Z0-9]{3}$'),
	CONSTRAINT "invoice_number_counters_value_ck" CHECK ("last_value" BETWEEN 1 AND 999999999)
);
--> statement-breakpoint
ALTER TABLE "invoice_number_counters" ADD CONSTRAINT "invoice_number_counters_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;
