ALTER TABLE "jobs" ADD COLUMN "next_probe_at" timestamp with time zone DEFAULT now();--> statement-breakpoint
CREATE INDEX "jobs_probe_idx" ON "jobs" USING btree ("next_probe_at") WHERE "jobs"."is_enabled" and "jobs"."type" = 'StockIntegration';
