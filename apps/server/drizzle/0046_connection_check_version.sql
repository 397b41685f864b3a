-- The version of the connection a check read (its updated_at then): the check is reused until the connection changes.
ALTER TABLE "connection_checks" ADD COLUMN "connection_updated_at" timestamp with time zone;
