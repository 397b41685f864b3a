CREATE TABLE "file_imports" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"direction" text NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"source" text NOT NULL,
	"agent_id" integer,
	"content_hash" text NOT NULL,
	"rows_accepted" integer DEFAULT 0 NOT NULL,
	"rows_rejected" integer DEFAULT 0 NOT NULL,
	"results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rows" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"columns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"content" text,
	"delivered_at" timestamp with time zone,
	"uploaded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"rows" jsonb NOT NULL,
	"export_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "folders" jsonb;--> statement-breakpoint
ALTER TABLE "file_imports" ADD CONSTRAINT "file_imports_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "file_orders" ADD CONSTRAINT "file_orders_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "file_imports_hash_uq" ON "file_imports" USING btree ("company_id","direction","kind","content_hash");--> statement-breakpoint
CREATE INDEX "file_imports_company_idx" ON "file_imports" USING btree ("company_id","direction","kind","uploaded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "file_orders_order_uq" ON "file_orders" USING btree ("company_id","order_no");--> statement-breakpoint
CREATE INDEX "file_orders_pending_idx" ON "file_orders" USING btree ("company_id") WHERE "file_orders"."export_id" is null;
