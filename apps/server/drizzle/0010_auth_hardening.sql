CREATE TABLE "throttle_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"bucket" text NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "throttle_events_bucket_key_idx" ON "throttle_events" USING btree ("bucket","key","created_at");--> statement-breakpoint
ALTER TABLE "mail_messages" ADD COLUMN "body_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "mail_messages_body_expires_idx" ON "mail_messages" USING btree ("body_expires_at");
