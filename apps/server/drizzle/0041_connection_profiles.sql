CREATE TABLE "connection_profiles" (
	"id" serial PRIMARY KEY NOT NULL,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"kind" text NOT NULL,
	"system_type" integer NOT NULL,
	"credentials_sealed" text NOT NULL,
	"agent_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "connection_profiles_company_kind_system_uq" ON "connection_profiles" USING btree ("company_id","kind","system_type");
--> statement-breakpoint
INSERT INTO "connection_profiles" ("company_id", "kind", "system_type", "credentials_sealed", "agent_id", "updated_at")
SELECT "company_id", "kind", "system_type", "credentials_sealed", "agent_id", "updated_at" FROM "connections" WHERE NOT "is_emulated";
