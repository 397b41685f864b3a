CREATE TABLE "connection_usage" (
	"company_id" integer NOT NULL,
	"connection_id" integer NOT NULL,
	"day" text NOT NULL,
	"system" text NOT NULL,
	"reads" integer DEFAULT 0 NOT NULL,
	"writes" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connection_usage_connection_id_day_pk" PRIMARY KEY("connection_id","day")
);
--> statement-breakpoint
ALTER TABLE "connection_usage" ADD CONSTRAINT "connection_usage_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connection_usage" ADD CONSTRAINT "connection_usage_connection_id_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connection_usage_company_idx" ON "connection_usage" USING btree ("company_id","day");
