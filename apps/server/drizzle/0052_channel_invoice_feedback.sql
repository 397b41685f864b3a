-- Issue 37 items 4–5: a marketplace order's invoice link and shipment tracking number go back to the
-- marketplace once each. The claim (attempts), the next try after a 429/5xx, a permanent refusal (the
-- marketplace takes no link, or refuses this one) and the tracking number the merchant entered are kept on
-- the invoice; the shop's attachment (attached_at) is unchanged.
ALTER TABLE "einvoices" ADD COLUMN "attach_attempts" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "attach_next_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "attach_refused_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "attach_message" text;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "carrier" text;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "tracking_number" text;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "tracking_attempts" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "tracking_next_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "tracking_sent_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "tracking_refused_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "einvoices" ADD COLUMN "tracking_message" text;
