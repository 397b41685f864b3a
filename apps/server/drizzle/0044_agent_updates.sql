-- The agent's self-update (issue 39, item 4): the hours the merchant allows it in (agent's local clock,
-- [from, to), from = to: any hour; night by default) and the update under way, for the panel.
ALTER TABLE "agents" ADD COLUMN "update_from" smallint DEFAULT 2 NOT NULL;
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "update_to" smallint DEFAULT 5 NOT NULL;
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "updating_to" text;
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "updating_since" timestamp with time zone;
