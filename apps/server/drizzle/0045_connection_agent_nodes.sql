CREATE TABLE "connection_agent_nodes" (
	"connection_id" integer NOT NULL REFERENCES "connections"("id") ON DELETE CASCADE,
	"agent_id" integer NOT NULL REFERENCES "agents"("id") ON DELETE CASCADE,
	"company_id" integer NOT NULL REFERENCES "companies"("id") ON DELETE CASCADE,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connection_agent_nodes_pk" PRIMARY KEY ("connection_id", "agent_id")
);
--> statement-breakpoint
CREATE INDEX "connection_agent_nodes_agent_idx" ON "connection_agent_nodes" USING btree ("agent_id");
