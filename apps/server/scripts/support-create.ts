/**
 * Creates a support-team account (or resets its password):
 *   npm run support:create -- --email destek@example.com --password 'Guclu.Parola1' [--first-name Ali --last-name Veli]
 * Uses the same DATA_DIR / DATABASE_URL as the server. Support accounts sign in on the normal
 * sign-in screen and land on /support; they can never be created through registration.
 */
import { parseArgs } from "node:util";
import { loadConfig } from "../src/config.ts";
import { createSupportUser } from "../src/modules/support/create-support-user.ts";
import { openDatabase } from "../src/platform/db/database.ts";

const { values } = parseArgs({
  options: {
    email: { type: "string" },
    password: { type: "string" },
    "first-name": { type: "string" },
    "last-name": { type: "string" },
  },
});
if (!values.email || !values.password) {
  console.error("usage: npm run support:create -- --email <address> --password <password>");
  process.exit(2);
}
const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  const result = await createSupportUser(database.db, {
    email: values.email,
    password: values.password,
    firstName: values["first-name"],
    lastName: values["last-name"],
  });
  console.log(
    result.created
      ? `Support account ${values.email} created (id ${result.id}).`
      : `Support account ${values.email} already existed; its password was reset.`,
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
