import {
  type CallCounter,
  type ConnectorKind,
  createErpConnector,
  createSalesChannelConnector,
  createShopConnector,
  type ErpConnector,
  getDescriptor,
  getFileShop,
  InMemoryRateLimitStore,
  type RateLimitStore,
  type ShopConnector,
  type TransportFetch,
} from "@ep/connectors";
import {
  type ChannelSettings,
  type OpenedConnectors,
  PgRateLimitStore,
  type StockPoolView,
} from "@ep/engine";
import type { AppContext } from "../../platform/context.ts";
import { agentHubOf } from "../agents/service.ts";
import { deliverOrdersFiles } from "../file-exchange/agent-files.ts";
import { FileExchange } from "../file-exchange/service.ts";
import {
  channelCredentialPersister,
  channelOf,
  credentialPersister,
  findChannel,
  findConnection,
  listChannels,
  openCredentials,
} from "./repository.ts";
import { sqlTransportOf } from "./sql-transport.ts";

export class MissingConnectionError extends Error {}

/**
 * Builds a company's ERP and shop connectors from its stored connections: credentials opened only
 * here, the rate limiter shared across processes through the database, calls counted per run.
 */
export async function openCompanyConnectors(
  ctx: Pick<AppContext, "config" | "database" | "credentials" | "logger" | "outbound">,
  companyId: number,
  counter: CallCounter,
  tuning: { timeoutMs?: number; rateMultiplier?: number } = {},
  /** A sales channel's job: that channel's connector stands in the shop's place. */
  channelId?: number | null,
): Promise<OpenedConnectors> {
  const db = ctx.database.db;
  const [erpRow, shopRow] = await Promise.all([
    findConnection(db, companyId, "erp"),
    channelId ? findChannel(db, companyId, channelId) : findConnection(db, companyId, "shop"),
  ]);
  if (!erpRow || !shopRow)
    throw new MissingConnectionError(`company ${companyId} has no ${erpRow ? "shop" : "ERP"} connection`);
  const rateLimitStore = rateLimitStoreFor(ctx.database);
  const logger = ctx.logger.child({ companyId });
  const connectorContext = {
    companyId: String(companyId),
    rateLimitStore,
    counter,
    timeoutMs: tuning.timeoutMs,
    logger: (entry: object) => logger.debug({ call: entry }, "external call"),
  };
  // Scaled budgets are for emulators (benchmarks, tests); against real systems the multiplier stays 1.
  const budget = (kind: ConnectorKind, type: number) => {
    const base = getDescriptor(kind, type)?.budget;
    const m = tuning.rateMultiplier ?? 1;
    return base && m !== 1 ? { ...base, requests: Math.max(1, Math.round(base.requests * m)) } : undefined;
  };
  const erpCreds = openCredentials(ctx.credentials, erpRow);
  const shopCreds = openCredentials(ctx.credentials, shopRow);
  return {
    erp: createErpConnector(erpRow.systemType, erpCreds, {
      ...connectorContext,
      fetch: transportOf(ctx, erpRow.agentId, erpRow.id),
      sql: sqlTransportOf(ctx, erpRow.agentId, erpCreds, erpRow.id),
      files: filesOf(ctx, companyId, erpRow.systemType),
      budget: budget("erp", erpRow.systemType),
      persistCredentials: credentialPersister(db, ctx.credentials, companyId, "erp", erpCreds),
    }),
    shop:
      shopRow.kind === "channel"
        ? createSalesChannelConnector(shopRow.systemKey ?? "", shopCreds, {
            ...connectorContext,
            fetch: transportOf(ctx, shopRow.agentId, shopRow.id),
            persistCredentials: channelCredentialPersister(db, ctx.credentials, shopRow.id, shopCreds),
          })
        : createShopConnector(shopRow.systemType, shopCreds, {
            ...connectorContext,
            fetch: transportOf(ctx, shopRow.agentId, shopRow.id),
            shopFiles: shopFilesOf(ctx, companyId, shopRow.systemType),
            budget: budget("shop", shopRow.systemType),
            persistCredentials: credentialPersister(db, ctx.credentials, companyId, "shop", shopCreds),
          }),
    erpConnectionId: erpRow.id,
    shopConnectionId: shopRow.id,
    ...(shopRow.kind === "channel" ? { channel: channelOf(shopRow) } : {}),
    ...(await stockPoolOf(db, companyId, shopRow)),
  };
}

/**
 * The stock pool a company's channels share (issue 37), when it sells on marketplaces: the shop (with
 * no safety stock of its own) and each channel with its safety stock and weight. A company with its
 * shop alone has none, and its stock runs are as they were.
 */
async function stockPoolOf(
  db: AppContext["database"]["db"],
  companyId: number,
  row: { id: number; kind: string },
): Promise<{ stockPool?: StockPoolView }> {
  const channels = await listChannels(db, companyId);
  if (channels.length === 0) return {};
  const shop = row.kind === "shop" ? row : await findConnection(db, companyId, "shop");
  const hasShop = !!shop;
  return {
    stockPool: {
      channelKey: row.kind === "channel" ? String(row.id) : "shop",
      otherConnections: [...(shop ? [shop.id] : []), ...channels.map((c) => c.id)].filter(
        (id) => id !== row.id,
      ),
      channels: [
        ...(hasShop ? [{ channelKey: "shop", safety: { units: 0 } }] : []),
        ...channels.map((c) => {
          const settings = c.settings as ChannelSettings;
          return {
            channelKey: String(c.id),
            safety: settings.safety ?? { units: 0 },
            ...(settings.weight === undefined ? {} : { weight: settings.weight }),
          };
        }),
      ],
    },
  };
}

/**
 * How a connection's calls travel: through its on-site agent (to wherever in the company's network the
 * agent can reach: no outbound guard, private addresses are the point) or straight out through the guard.
 */
export function transportOf(
  ctx: Pick<AppContext, "config" | "database" | "outbound">,
  agentId: number | null | undefined,
  /** The stored connection: its calls go through whichever of its agents is online. */
  connectionId?: number,
): TransportFetch {
  return agentId ? agentHubOf(ctx).fetchFor(agentId, connectionId) : ctx.outbound.fetch;
}

/**
 * The company's files for a system with no API (generic SQL / file connector): uploads and watched-folder
 * files in, orders files out (handed to the company's agents with an outbox folder as they are written).
 */
export function filesOf(
  ctx: Pick<AppContext, "config" | "database" | "credentials"> & Partial<Pick<AppContext, "logger">>,
  companyId: number,
  systemType: number,
) {
  if (!getDescriptor("erp", systemType)?.mapping) return undefined;
  return new FileExchange(ctx).sourceFor(
    companyId,
    () => new Date(),
    () =>
      void deliverOrdersFiles(ctx, companyId).catch((e: unknown) =>
        ctx.logger?.warn({ err: e, companyId }, "orders file not handed to the agent"),
      ),
  );
}

/** The company's files with a shop that has no API (JetStok): the stock and price file out, orders files in. */
export function shopFilesOf(
  ctx: Pick<AppContext, "config" | "database" | "credentials">,
  companyId: number,
  systemType: number,
) {
  if (!getFileShop(systemType)) return undefined;
  return new FileExchange(ctx).shopSourceFor(companyId, () => new Date());
}

let processStore: InMemoryRateLimitStore | undefined;

/**
 * Where the rate limiter keeps its windows: in PostgreSQL when several processes share the budget;
 * with the embedded database there is one process only, so its memory is the exact same thing and
 * costs no query per call.
 */
export function rateLimitStoreFor(database: AppContext["database"]): RateLimitStore {
  if (database.kind === "postgres") return new PgRateLimitStore(database.db);
  processStore ??= new InMemoryRateLimitStore();
  return processStore;
}

/**
 * One side's connector built from given credentials (settings: connection test, live lists, ERP
 * matching). It takes its turn in the company's shared budget for that system, so a person opening
 * a settings screen while a sync runs waits a moment instead of drawing a 429 from the system, and
 * it retries a transient failure briefly: someone is waiting on the screen.
 */
export function connectorFor(
  ctx: Pick<AppContext, "config" | "database" | "outbound" | "credentials">,
  companyId: number,
  kind: ConnectorKind,
  type: number,
  credentials: Record<string, string>,
  agentId?: number | null,
): ErpConnector | ShopConnector {
  const connectorContext = interactiveConnectorContext(ctx, companyId, kind, credentials, agentId);
  return kind === "erp"
    ? createErpConnector(type, credentials, { ...connectorContext, files: filesOf(ctx, companyId, type) })
    : createShopConnector(type, credentials, {
        ...connectorContext,
        shopFiles: shopFilesOf(ctx, companyId, type),
      });
}

/** The context of a call someone waits on (see `connectorFor`); also the webhook registration's. */
export function interactiveConnectorContext(
  ctx: Pick<AppContext, "config" | "database" | "outbound" | "credentials">,
  companyId: number,
  kind: ConnectorKind,
  credentials: Record<string, string>,
  agentId?: number | null,
) {
  return {
    companyId: String(companyId),
    rateLimitStore: rateLimitStoreFor(ctx.database),
    timeoutMs: Math.min(ctx.config.connectorTimeoutMs, 15_000),
    retry: { maxRetries: 2, maxRetryAfterMs: 10_000 },
    fetch: transportOf(ctx, agentId),
    sql: kind === "erp" ? sqlTransportOf(ctx, agentId, credentials) : undefined,
    persistCredentials: credentialPersister(ctx.database.db, ctx.credentials, companyId, kind, credentials),
  };
}
