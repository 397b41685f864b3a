CREATE TABLE "erp_matchings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"erp_sku" text NOT NULL,
	"shop_sku" text NOT NULL,
	"shop_product_id" text NOT NULL,
	"shop_variant_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "erp_matchings" ADD CONSTRAINT "erp_matchings_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "erp_matchings_company_erp_uq" ON "erp_matchings" USING btree ("company_id","erp_sku");--> statement-breakpoint
CREATE UNIQUE INDEX "erp_matchings_company_shop_uq" ON "erp_matchings" USING btree ("company_id","shop_sku");