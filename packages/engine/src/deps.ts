import type { CallCounter, ErpConnector, ShopConnector } from "@ep/connectors";
import type { JobType } from "@ep/contracts";
import type { ChannelShare } from "./channels/stock-pool.ts";
import type { Db, Tx } from "./db.ts";

export type EngineLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

/**
 * A marketplace sales channel a job serves (issue 37). Its connector stands in the shop's place, so the
 * engine's flows run unchanged per channel; what differs (the ERP reference of its orders, its series,
 * its stock share and price rule) comes from here.
 */
export type SalesChannel = {
  connectionId: number;
  /** The system key (`trendyol`, `hepsiburada`…). */
  system: string;
  /** The marketplace's name as the merchant reads it (written into the ERP's sales channel field). */
  name: string;
  settings: ChannelSettings;
};

/** A channel's settings, stored with its connection; every field optional (defaults apply). */
export type ChannelSettings = {
  /**
   * Whether this channel's orders are invoiced by the company's invoice job, as the shop's are (its link and
   * tracking number then go back to the marketplace); absent: as the shop's (on).
   */
  invoices?: boolean;
  /** Prefix of the order reference written into the ERP (order no `TY-…`): channels may reuse numbers. */
  orderPrefix?: string;
  /** ERP document series for this channel's orders (Mikro evrak seri); default: the company's. */
  orderSeries?: string;
  /** The channel's order statuses that go to the ERP; empty or absent: every order not cancelled. */
  orderStatuses?: string[];
  /** Stock held back from this channel: units or a percentage of what the pool offers. */
  safety?: { units: number } | { percent: number };
  /** Share of the pool relative to the other channels (default 1). */
  weight?: number;
  /** The channel's price: the ERP price with a markup, rounded, never under a minimum. */
  priceRule?: { markupPercent: number; rounding: "none" | "90" | "99"; minimum?: number };
};

/**
 * The stock pool of a company that sells on more than one channel (issue 37): which channel a run
 * writes for (`shop` or the channel's connection id), and every channel's share.
 */
export type StockPoolView = {
  channelKey: string;
  channels: ChannelShare[];
  /** The other channels' connections: what they show now caps this channel's offer. */
  otherConnections: number[];
};

export type OpenedConnectors = {
  erp: ErpConnector;
  /** The shop, or the sales channel's connector for a channel's job. */
  shop: ShopConnector;
  erpConnectionId: number;
  shopConnectionId: number;
  /** Set for a sales channel's job; absent for the shop's. */
  channel?: SalesChannel;
  /** Set when the company has sales channels beside its shop: the stock pool they share. */
  stockPool?: StockPoolView;
};

/** A run's life, as the long-poll call and open panels see it. */
export type RunEvent = {
  companyId: number;
  runId: number;
  jobId: number;
  jobType: string;
  status: string;
  counts?: { read: number; changed: number; written: number; failed: number };
};

/** What the engine needs from its host (the server): storage, the queue, connectors, events. */
/**
 * A held run: its Turkish reason and the key of the hold (connection and difference), so a schedule
 * retrying it every tick tells the merchant once per hold, not once per run.
 */
export type RunHold = { reason: string; key: string };

export type EngineDeps = {
  db: Db;
  logger: EngineLogger;
  now(): Date;
  /** Unique per process: owner of run leases and record locks. */
  workerId: string;
  /** Puts a run on the queue inside the caller's transaction, so both commit or neither does. */
  enqueueRun(tx: Tx, runId: number): Promise<void>;
  /** Tells every process (LISTEN/NOTIFY) that a run of a company moved. */
  publish(event: RunEvent): Promise<void>;
  /**
   * Builds the company's ERP and shop connectors, their calls counted by `counter`; with `channelId` (a
   * sales channel's job), the ERP and that channel's connector in the shop's place.
   */
  openConnectors(
    companyId: number,
    counter: CallCounter,
    channelId?: number | null,
  ): Promise<OpenedConnectors>;
  /** A reason to refuse the run (e.g. an expired licence), or null to go ahead. */
  refuseRun?(companyId: number, jobType: JobType): Promise<string | null>;
  /**
   * Asked only when a run starts, after `refuseRun` (the stock probe does not ask it): why the run is
   * held (a first sync while the connection check found a needed read "uyumsuz"), or null.
   */
  holdRun?(companyId: number, jobType: JobType): Promise<RunHold | null>;
  /** Run lease: a run whose worker stops renewing it for this long is marked Crashed. */
  leaseMs?: number;
};
