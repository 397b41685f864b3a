/**
 * Prints the mails that went to the local outbox (no SMTP_URL set), newest first:
 *   npm run mail:outbox -w @ep/server [-- --limit 20]
 * Uses the same DATA_DIR / DATABASE_URL as the server.
 */
import { desc, eq } from "drizzle-orm";
import { loadConfig } from "../src/config.ts";
import { openDatabase } from "../src/platform/db/database.ts";
import { mailMessages } from "../src/platform/db/schema.ts";

const limitArg = process.argv.indexOf("--limit");
const limit = limitArg > 0 ? Number(process.argv[limitArg + 1]) || 20 : 20;
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const rows = await database.db
  .select()
  .from(mailMessages)
  .where(eq(mailMessages.status, "outbox"))
  .orderBy(desc(mailMessages.id))
  .limit(limit);
if (rows.length === 0) console.log("The outbox is empty.");
for (const mail of rows) {
  console.log(
    `#${mail.id}  ${mail.createdAt.toISOString()}  to: ${mail.to}\nSubject: ${mail.subject}\n\n${mail.body}\n${"-".repeat(72)}`,
  );
}
await database.close();
