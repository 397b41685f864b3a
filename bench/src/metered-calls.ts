/**
 * Calls per run against catalogue size for the metered ERPs (DİA: kontör per call; Logo İşbaşı: monthly
 * quota). For each size: a full product read, a delta read with nothing changed, and one with 1 % changed,
 * counted by the SDK's CallCounter (billable calls: DİA's login is free). Run: npm run bench:metered -w bench
 */

import {
  billableCalls,
  CallCounter,
  type ConnectorContext,
  createDiaConnector,
  createIsbasiConnector,
  diaDescriptor,
  type ErpConnector,
  InMemoryRateLimitStore,
  isbasiDescriptor,
  startDiaEmulator,
  startIsbasiEmulator,
} from "@ep/connectors";

const SIZES = (process.env.SIZES ?? "1000,10000,50000").split(",").map(Number);

async function readAll(c: ErpConnector, since?: string): Promise<{ cursor?: string; pages: number }> {
  let token: string | undefined;
  let cursor: string | undefined;
  let pages = 0;
  do {
    const p = await c.listProducts({ since, pageToken: token });
    token = p.nextPageToken;
    cursor = p.cursor ?? cursor;
    pages++;
  } while (token);
  return { cursor, pages };
}

function ctx(counter: CallCounter): ConnectorContext {
  return {
    companyId: "bench",
    rateLimitStore: new InMemoryRateLimitStore(),
    budget: { requests: 10_000, windowMs: 1000 },
    counter,
  };
}

async function measure(
  name: string,
  size: number,
  start: () => Promise<{
    credentials: Record<string, string>;
    touch(sku: string): void;
    close(): Promise<void>;
  }>,
  create: (creds: Record<string, string>, c: ConnectorContext) => ErpConnector,
  system: string,
  policy: NonNullable<typeof diaDescriptor.metering>,
) {
  const emu = await start();
  try {
    const counter = new CallCounter();
    const conn = create(emu.credentials, ctx(counter));
    const billable = () => {
      const b = billableCalls(policy, system, counter.get(system), counter.byOperation());
      counter.reset();
      return b.read + b.write;
    };
    const full = await readAll(conn);
    const fullCalls = billable();
    const none = await readAll(conn, full.cursor);
    const noneCalls = billable();
    const changed = Math.max(1, Math.round(size / 100));
    for (let i = 1; i <= changed; i++) emu.touch(`STK-${String((i * 97) % size || 1).padStart(6, "0")}`);
    await readAll(conn, full.cursor);
    const someCalls = billable();
    console.log(
      `${name.padEnd(8)} ${String(size).padStart(7)} SKUs | full ${String(fullCalls).padStart(5)} calls | nothing changed ${noneCalls} calls (${none.pages} page) | ${changed} changed ${someCalls} calls`,
    );
  } finally {
    await emu.close();
  }
}

for (const size of SIZES) {
  await measure(
    "DİA",
    size,
    async () => {
      const e = await startDiaEmulator({ seed: 1, productCount: size });
      return { credentials: e.credentials, touch: (s) => e.touchProduct(s), close: () => e.close() };
    },
    createDiaConnector,
    "dia",
    diaDescriptor.metering ?? { kind: "credit" },
  );
  await measure(
    "İşbaşı",
    size,
    async () => {
      const e = await startIsbasiEmulator({ seed: 1, productCount: size, quota: { read: 1e9, write: 1e9 } });
      return { credentials: e.credentials, touch: (s) => e.touchProduct(s), close: () => e.close() };
    },
    createIsbasiConnector,
    "logo-isbasi",
    isbasiDescriptor.metering ?? { kind: "quota" },
  );
}
