CREATE TABLE "einvoices" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"shop_connection_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"shop_order_id" text NOT NULL,
	"ettn" uuid NOT NULL,
	"number" text NOT NULL,
	"profile" text NOT NULL,
	"state" text DEFAULT 'prepared' NOT NULL,
	"send_attempts" integer DEFAULT 0 NOT NULL,
	"provider_status" text,
	"message" text,
	"buyer" text NOT NULL,
	"total" double precision NOT NULL,
	"currency" text NOT NULL,
	"issue_date" date NOT NULL,
	"attached_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "einvoices_ettn_uq" UNIQUE("ettn"),
	CONSTRAINT "einvoices_order_uq" UNIQUE("company_id","shop_connection_id","order_no"),
	CONSTRAINT "einvoices_number_uq" UNIQUE("company_id","number")
);
--> statement-breakpoint
ALTER TABLE "einvoices" ADD CONSTRAINT "einvoices_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "einvoices_company_state_idx" ON "einvoices" ("company_id","state","issue_date");
--> statement-breakpoint
CREATE TABLE "invoice_settings" (
	"company_id" integer PRIMARY KEY NOT NULL,
	"series" text DEFAULT 'WEB' NOT NULL,
	"draft" boolean DEFAULT false NOT NULL,
	"invoice_when" text DEFAULT 'paid' NOT NULL,
	"einvoice_profile" text DEFAULT 'TEMELFATURA' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoice_settings_series_ck" CHECK ("series" ~ '^[A-Z0-9]{3}$')
);
--> statement-breakpoint
ALTER TABLE "invoice_settings" ADD CONSTRAINT "invoice_settings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;
