-- Issue 37: returns line by line. Each return a marketplace reports (a Trendyol claim item, a Hepsiburada
-- claim, an Amazon returns-report row) is recorded once per order (`ref`), as units of one line of the
-- ledger's order (`line_no`: its index in the payload's lines); the units of a line never exceed what was
-- ordered. The invoice cycle decides each returned part once (`route`, `reason`, against the sale `einvoice_id`;
-- `part`: the sale's 1st, 2nd … partial return).
CREATE TABLE "order_return_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL,
	"ledger_id" integer NOT NULL,
	"ref" text NOT NULL,
	"line_no" integer NOT NULL,
	"sku" text NOT NULL,
	"qty" double precision NOT NULL,
	"returned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"route" text,
	"reason" text,
	"einvoice_id" integer,
	"part" integer,
	"routed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "order_return_lines" ADD CONSTRAINT "order_return_lines_ledger_id_order_ledger_id_fk" FOREIGN KEY ("ledger_id") REFERENCES "public"."order_ledger"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "order_return_lines_ref_uq" ON "order_return_lines" USING btree ("ledger_id","ref");
--> statement-breakpoint
CREATE INDEX "order_return_lines_unrouted_idx" ON "order_return_lines" USING btree ("company_id") WHERE "order_return_lines"."routed_at" is null;
