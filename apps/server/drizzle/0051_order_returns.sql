-- Issue 37: cancellations and returns coming back from a shop or sales channel, recorded once per order
-- in the order ledger: the kind (cancel/return), the channel's own status word, when it was first seen,
-- and how it was settled with the ERP (pending → erp_cancelled / not_in_erp / kept).
ALTER TABLE "order_ledger" ADD COLUMN "return_kind" text;
--> statement-breakpoint
ALTER TABLE "order_ledger" ADD COLUMN "channel_status" text;
--> statement-breakpoint
ALTER TABLE "order_ledger" ADD COLUMN "returned_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "order_ledger" ADD COLUMN "return_state" text;
--> statement-breakpoint
CREATE INDEX "order_ledger_return_pending_idx" ON "order_ledger" USING btree ("shop_connection_id") WHERE "order_ledger"."return_state" = 'pending';
