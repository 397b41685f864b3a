/** Small helpers every connector's contract test uses against its emulator. */
import type { ConnectorContext } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import { CallCounter, type HttpLogEntry } from "../sdk/logging";
import type { RateLimitStore } from "../sdk/rate-limit";

/**
 * The context a contract test gives its connector: company "c1" on the file's shared rate-limit store,
 * 200 requests a second, 400 ms timeouts and quick retries, each call's log line kept in `logs`.
 */
export function testContext(
  store: RateLimitStore,
  logs: HttpLogEntry[] | undefined,
  over: Partial<ConnectorContext> = {},
): ConnectorContext {
  return {
    companyId: "c1",
    rateLimitStore: store,
    budget: { requests: 200, windowMs: 1000 },
    ...(logs ? { logger: (e: HttpLogEntry) => logs.push(e) } : {}),
    counter: new CallCounter(),
    // Generous enough for a first call on a loaded 2-core CI box; timeout tests hang far longer.
    timeoutMs: 1500,
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 40, maxRetryAfterMs: 5_000 },
    ...over,
  };
}

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
