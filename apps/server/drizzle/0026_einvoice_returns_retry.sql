ALTER TABLE "einvoices" ADD COLUMN "type" text DEFAULT 'SATIS' NOT NULL;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "return_of_id" integer;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "next_attempt_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "einvoices" DROP CONSTRAINT "einvoices_order_uq";
--> statement-breakpoint
ALTER TABLE "einvoices" ADD CONSTRAINT "einvoices_order_uq" UNIQUE("company_id","shop_connection_id","order_no","type");
--> statement-breakpoint
ALTER TABLE "einvoices" ADD CONSTRAINT "einvoices_return_of_id_einvoices_id_fk" FOREIGN KEY ("return_of_id") REFERENCES "public"."einvoices"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD CONSTRAINT "einvoices_type_ck" CHECK ("type" IN ('SATIS', 'IADE'));
