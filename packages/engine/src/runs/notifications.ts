import type { Executor } from "../db.ts";
import { notifications } from "../store/schema.ts";

/** Stores a notification for a company; `source` makes one event notify once, however often it is told. */
export async function notifyCompany(
  db: Executor,
  companyId: number,
  type: "Info" | "Error",
  text: string,
  source: string | null = null,
): Promise<void> {
  await db.insert(notifications).values({ companyId, type, text, source }).onConflictDoNothing();
}
