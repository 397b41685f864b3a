/**
 * A system's built-in sandbox: what the panel's "Deneme sistemlerine bağlan" starts for a company. Each
 * connector folder that has one exports its entry (`<system>/sandbox.ts`) on its module; the server lists
 * them from the connector registry, so adding a sandbox touches only the system's own folder.
 */
import type { FastifyInstance } from "fastify";

/** How big a tenant's seeded catalogue is: a new company's or the demo company's. */
export type SandboxProfile = "standard" | "demo";

export type SandboxInstance = {
  app: FastifyInstance;
  close(): Promise<void>;
  /** The emulator itself (its controls: cancel a package, place orders), for tests that drive it. */
  emulator?: unknown;
};

/** Who decides when a shop tenant's customers order (the demo: at its own past's pace). */
export type OrderArrivals = {
  /** The order number the shop gave last, when it had given some before a restart. */
  lastOrderNumber: number | undefined;
  /** How often `due` is asked. */
  checkEveryMs: number;
  /** When the orders due by now and not placed yet were placed (ms); asked at start and then regularly. */
  due(): number[];
};

export type SandboxStart = {
  seed: number;
  /** The tenant's own address, `…/sandbox/{system}/{tenant}`. */
  baseUrl: string;
  credentials: Record<string, string>;
  profile: SandboxProfile;
  /** The shop's orders: as these say, instead of a few at start and more every few minutes. */
  arrivals?: OrderArrivals;
};

/** What a connector folder declares about its sandbox. */
export type SandboxEntry = {
  /** The path segment: `/sandbox/{system}/…`. */
  system: string;
  /** The tenant's login: `secret(name)` is a stable per-tenant secret. */
  credentials(baseUrl: string, secret: (name: string) => string): Record<string, string>;
  start(options: SandboxStart): Promise<SandboxInstance>;
  /** Whether it can run here (e.g. the vendor files it is built from are present); offered only then. */
  available?(): boolean;
};

// The ERP holds the whole catalogue; the shop lacks the newest SKUs, so product transfer has work.
export const SANDBOX_SIZES: Record<SandboxProfile, { erp: number; shop: number; orders: number }> = {
  standard: { erp: 300, shop: 250, orders: 10 },
  demo: { erp: 3_500, shop: 3_000, orders: 40 },
};

type Emulator = { app: FastifyInstance; close(): Promise<void> };
type OrderingShop = { startOrderGenerator(everyMs: number, perTick: number): () => void };

/** The running emulator as a sandbox instance; `stop` ends what it does on its own (orders, invoicing). */
export function sandboxInstance(emulator: Emulator, stop?: () => void): SandboxInstance {
  return {
    app: emulator.app,
    emulator,
    async close() {
      stop?.();
      await emulator.close();
    },
  };
}

/** Customers keep ordering, so order transfer has work: more often in the demo, which people watch. */
export function keepOrdering(shop: OrderingShop, profile: SandboxProfile): () => void {
  return shop.startOrderGenerator(profile === "demo" ? 3 * 60_000 : 10 * 60_000, 2);
}

/** What every emulator a sandbox starts takes: served by the server's own HTTP side at `baseUrl`. */
export type SandboxEmulatorBase = { listen: false; baseUrl: string; seed: number; productCount: number };

/** The tenant's login as the emulator's options (from the credentials `credentials` made). */
type Login<O> = (credentials: Record<string, string>) => O;

/** An ERP's sandbox: its emulator with the profile's catalogue, answering the tenant's login. */
export function erpSandbox<O>(
  system: string,
  credentials: SandboxEntry["credentials"],
  startEmulator: (options: SandboxEmulatorBase & O) => Promise<Emulator>,
  login: Login<O>,
): SandboxEntry {
  return {
    system,
    credentials,
    async start({ seed, baseUrl, credentials: c, profile }) {
      const base = { listen: false as const, baseUrl, seed, productCount: SANDBOX_SIZES[profile].erp };
      return sandboxInstance(await startEmulator({ ...base, ...login(c) }));
    },
  };
}

/** A shop's sandbox: the profile's catalogue and orders, and customers who keep ordering. */
export function shopSandbox<O>(
  system: string,
  credentials: SandboxEntry["credentials"],
  startEmulator: (
    options: SandboxEmulatorBase & { orderCount: number } & O,
  ) => Promise<Emulator & OrderingShop>,
  login: Login<O>,
): SandboxEntry {
  return {
    system,
    credentials,
    async start({ seed, baseUrl, credentials: c, profile }) {
      const { shop: productCount, orders: orderCount } = SANDBOX_SIZES[profile];
      const shop = await startEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount,
        orderCount,
        ...login(c),
      });
      return sandboxInstance(shop, keepOrdering(shop, profile));
    },
  };
}

/** Places the orders `arrivals` says are due, now and from then on; returns the stop. */
export function placeArrivals(
  arrivals: OrderArrivals,
  shop: { generateOrders(n: number, orderedAt: readonly number[]): unknown },
): () => void {
  const place = () => {
    const due = arrivals.due();
    if (due.length > 0) shop.generateOrders(due.length, due);
  };
  place();
  const timer = setInterval(place, arrivals.checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}
