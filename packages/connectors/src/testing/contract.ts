/** Small helpers every connector's contract test uses against its emulator. */
import { ConnectorError } from "../sdk/errors";

/** The ConnectorError a call fails with (any other outcome fails the test). */
export async function caught(p: Promise<unknown>): Promise<ConnectorError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ConnectorError) return e;
    throw e;
  }
  throw new Error("expected a ConnectorError");
}

/** Follows `nextPageToken` to the end: every item, the last change cursor seen, and the page count. */
export async function readAllPages<T>(
  fetchPage: (token?: string) => Promise<{ items: T[]; nextPageToken?: string; cursor?: string }>,
) {
  const items: T[] = [];
  let token: string | undefined;
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = await fetchPage(token);
    items.push(...page.items);
    token = page.nextPageToken;
    cursor = page.cursor ?? cursor;
    pages++;
  } while (token);
  return { items, cursor, pages };
}
