import type { CallCounter, ErpConnector, ShopConnector } from "@ep/connectors";
import type { JobType } from "@ep/contracts";
import type { Db, Tx } from "./db.ts";

export type EngineLogger = {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
};

export type OpenedConnectors = {
  erp: ErpConnector;
  shop: ShopConnector;
  erpConnectionId: number;
  shopConnectionId: number;
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
  /** Builds the company's two connectors, their calls counted by `counter`. */
  openConnectors(companyId: number, counter: CallCounter): Promise<OpenedConnectors>;
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
