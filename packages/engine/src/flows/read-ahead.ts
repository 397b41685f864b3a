import type { Page } from "@ep/connectors";

/**
 * The pages of a listing, the next one already asked for while the caller works on the current
 * one: calls to the system still go one at a time, but its answer time overlaps the flow's own
 * work (comparing, writing the ledger, waiting for the shop).
 */
export async function* readAhead<T>(
  fetchPage: (pageToken: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<Page<T>> {
  let next = fetchPage(undefined);
  for (;;) {
    const page = await next;
    if (!page.nextPageToken) {
      yield page;
      return;
    }
    next = fetchPage(page.nextPageToken);
    // A caller that stops early leaves this request behind: its failure must not go unhandled.
    next.catch(() => undefined);
    yield page;
  }
}
