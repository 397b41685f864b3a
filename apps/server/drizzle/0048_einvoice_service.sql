-- Issue 35: the seller's web address (e-Arşiv for an internet sale), the merchant's dated exchange rates,
-- and what each e-invoice used (its rate and where it came from, its issue time, the route of a return).
ALTER TABLE "companies" ADD COLUMN "website" text DEFAULT '' NOT NULL;
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"currency" text NOT NULL,
	"rate_date" date NOT NULL,
	"rate" double precision NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_pk" PRIMARY KEY ("company_id", "currency", "rate_date"),
	CONSTRAINT "exchange_rates_rate_ck" CHECK ("rate" > 0)
);
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "issue_time" text;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "exchange_rate" double precision;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "rate_source" text;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "return_route" text;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "return_reason" text;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "ubl" text;
