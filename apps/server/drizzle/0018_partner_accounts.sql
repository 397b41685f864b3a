CREATE TABLE "partner_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"partner" text NOT NULL,
	"external_id" text NOT NULL,
	"company_id" integer NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD CONSTRAINT "partner_accounts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "partner_accounts" ADD CONSTRAINT "partner_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "partner_accounts_partner_external_uq" ON "partner_accounts" USING btree ("partner","external_id");--> statement-breakpoint
CREATE INDEX "partner_accounts_company_idx" ON "partner_accounts" USING btree ("company_id");
