ALTER TABLE "connections" ADD COLUMN "agent_id" integer;--> statement-breakpoint
ALTER TABLE "connections" ADD CONSTRAINT "connections_agent_id_agents_id_fk" FOREIGN KEY ("agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "socket_holder" text;--> statement-breakpoint
CREATE TABLE "agent_relay_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" integer NOT NULL,
	"request" jsonb NOT NULL,
	"answer" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
