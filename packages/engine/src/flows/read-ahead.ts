import { type ErpConnector, isConnectorError, type Page } from "@ep/connectors";

/**
 * The pages of a listing, the next one already asked for while the caller works on the current
 * one: calls to the system still go one at a time, but its answer time overlaps the flow's own
 * work (comparing, writing the ledger, waiting for the shop).
 */
export async function* readAhead<T>(
  fetchPage: (pageToken: string | undefined) => Promise<Page<T>>,
  firstToken?: string,
): AsyncGenerator<Page<T>> {
  let next = fetchPage(firstToken);
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

/**
 * The pages of several chains of one listing (disjoint key ranges, see `ErpConnector.splitFullRead`),
 * each read ahead by one page, yielded as they arrive with the index of their chain. One request per
 * chain is in flight; the connector's rate limiter still paces them all.
 */
export async function* readChains<T>(
  fetchPage: (pageToken: string | undefined) => Promise<Page<T>>,
  firstTokens: Array<string | undefined>,
): AsyncGenerator<{ chain: number; page: Page<T> }> {
  const chains = firstTokens.map((token) => readAhead(fetchPage, token));
  type Step = { chain: number; step: IteratorResult<Page<T>> };
  const pending = new Map<number, Promise<Step>>();
  const ask = (chain: number) => {
    const p = (chains[chain] as AsyncGenerator<Page<T>>).next().then((step) => ({ chain, step }));
    // Settled later by the race, or left behind when the caller stops early.
    p.catch(() => undefined);
    pending.set(chain, p);
  };
  for (let chain = 0; chain < chains.length; chain++) ask(chain);
  try {
    while (pending.size > 0) {
      const { chain, step } = await Promise.race(pending.values());
      if (step.done) {
        pending.delete(chain);
        continue;
      }
      ask(chain);
      yield { chain, page: step.value };
    }
  } finally {
    // Stopping early (a failure, or the flow's own decision): the other chains ask for nothing more
    // once their request in flight is answered.
    for (const c of chains) c.return(undefined).catch(() => undefined);
  }
}

/**
 * Where the chains of a full ERP listing start: the connector's key ranges when it splits such a read
 * (`batch.readChains` above 1), otherwise one chain from the beginning.
 */
export async function fullReadStarts(
  erp: ErpConnector,
  listing: "stock" | "prices",
  q: { locations?: string[]; priceGroups?: string[] } = {},
): Promise<Array<string | undefined>> {
  const parts = erp.descriptor.batch.readChains ?? 1;
  if (parts <= 1 || !erp.splitFullRead) return [undefined];
  try {
    const starts = await erp.splitFullRead(listing, parts, q);
    return starts.length > 0 ? starts : [undefined];
  } catch (e) {
    // A system that refuses the split's statements (an older version, a stricter user) is read as one
    // chain, slower but whole; a transient failure fails the run as any read would.
    if (isConnectorError(e) && e.kind === "permanent" && e.reason !== "auth") return [undefined];
    throw e;
  }
}
