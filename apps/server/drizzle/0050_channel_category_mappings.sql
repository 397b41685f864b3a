-- Issue 37, product listing: per sales channel, an ERP category (path joined by " > ") mapped to the
-- marketplace's own category, the brand products are opened under, and the category's attribute values
-- from the marketplace's lists. The channel's listing job (its ProductIntegration) reads these.
CREATE TABLE "channel_category_mappings" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"connection_id" integer NOT NULL REFERENCES "connections"("id") ON DELETE CASCADE,
	"erp_category" text NOT NULL,
	"category_id" text NOT NULL,
	"category_name" text NOT NULL,
	"brand_id" text NOT NULL,
	"brand_name" text NOT NULL,
	"attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "channel_category_mappings_uq" ON "channel_category_mappings" USING btree ("connection_id","erp_category");
--> statement-breakpoint
CREATE INDEX "channel_category_mappings_company_idx" ON "channel_category_mappings" USING btree ("company_id","connection_id");
