import { randomBytes } from "node:crypto";
import {
  ConnectorError,
  getShopWebhooks,
  type ShopWebhooks,
  type WebhookDelivery,
  type WebhookHeaders,
} from "@ep/connectors";
import type { WebhookStatus } from "@ep/contracts";
import { engineSchema, enqueueRun } from "@ep/engine";
import { and, count, eq, gt, isNotNull, isNull, lt, lte, or, sql } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { interactiveConnectorContext } from "../connections/connector-factory.ts";
import { findConnection, openCredentials } from "../connections/repository.ts";
import type { WithEngine } from "../jobs/engine-host.ts";
import { webhookDeliveries, webhookEndpoints } from "./schema.ts";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export type DeliveryOutcome = "unknown" | "unauthorized" | "duplicate" | "throttled" | "accepted";

const ORDER_JOB = "OrderIntegration";

/**
 * Unsigned deliveries (a shop that documents no signature, Ideasoft): the same key (order id + status)
 * again within this window is a repeat; after it, a new trigger.
 */
export const UNSIGNED_REPEAT_WINDOW_MS = 10 * 60_000;
/**
 * Signed deliveries are keyed by the hash of what the vendor signed: the same signed content again
 * within this window (a vendor's retry, or a captured delivery resent with new ids) is a repeat. A day
 * covers the vendors' retry schedules; an order that changes gets new content.
 */
export const SIGNED_REPEAT_WINDOW_MS = 24 * 60 * 60_000;
/** Deliveries accepted per connection per minute, signed or not; beyond it they start nothing (429). */
export const DELIVERIES_PER_MINUTE = 30;
/**
 * Coalescing: an order delivery within this time of the connection's previous one does not start a run
 * of its own; it asks for one follow-up run, started once deliveries have been quiet this long (or
 * have kept coming for COALESCE_MAX_WAIT_MS) and no order run is active.
 */
export const COALESCE_QUIET_MS = 3_000;
export const COALESCE_MAX_WAIT_MS = 30_000;

/** Whether the shop's deliveries can be checked: a signing secret, or URL-token authentication. */
function canAuthenticate(hooks: ShopWebhooks, credentials: Record<string, string>): boolean {
  return hooks.authentication === "url-token" || !!hooks.signingSecret(credentials);
}

/**
 * Orders by webhook: one endpoint per shop connection behind an unguessable token. A delivery is
 * verified before anything is read or stored, capped per connection, de-duplicated by what the shop
 * signed, and starts the company's order run at once; a run already under way, or a burst of
 * deliveries, gets one follow-up run (never a parallel one).
 * The 5-minute schedule keeps polling as the safety net.
 */
export class WebhookService {
  private readonly db;

  constructor(private readonly ctx: AppContext & WithEngine) {
    this.db = ctx.database.db;
  }

  callbackUrl(token: string): string {
    return `${this.ctx.config.publicUrl.replace(/\/+$/, "")}/api/webhooks/${token}`;
  }

  /** The company's endpoint for its current shop connection (made on first use, token kept). */
  private async endpoint(companyId: number) {
    const connection = await findConnection(this.db, companyId, "shop");
    if (!connection) return undefined;
    const [existing] = await this.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.connectionId, connection.id));
    if (existing && existing.systemType === connection.systemType) return { connection, row: existing };
    const values = {
      companyId,
      connectionId: connection.id,
      token: randomBytes(24).toString("base64url"),
      systemType: connection.systemType,
      topics: [] as string[],
      registeredAt: null,
      lastError: null,
      lastDeliveryAt: null,
    };
    // Another shop system on the same connection: a new token, nothing registered yet.
    const [row] = await this.db
      .insert(webhookEndpoints)
      .values(values)
      .onConflictDoUpdate({ target: webhookEndpoints.connectionId, set: values })
      .returning();
    return { connection, row: row! };
  }

  async status(companyId: number): Promise<WebhookStatus> {
    const connection = await findConnection(this.db, companyId, "shop");
    const supported = !!connection && !!getShopWebhooks(connection.systemType);
    const [row] = connection
      ? await this.db
          .select()
          .from(webhookEndpoints)
          .where(
            and(
              eq(webhookEndpoints.connectionId, connection.id),
              eq(webhookEndpoints.systemType, connection.systemType),
            ),
          )
      : [];
    return {
      supported,
      registered: supported && !!row?.registeredAt,
      registeredAt: row?.registeredAt?.toISOString() ?? null,
      lastDeliveryAt: row?.lastDeliveryAt?.toISOString() ?? null,
      topics: row?.topics ?? [],
      lastError: row?.lastError ?? null,
    };
  }

  /** Subscribes the company's callback URL at its shop; the outcome is kept for the panel. */
  async register(companyId: number): Promise<WebhookStatus> {
    const found = await this.endpoint(companyId);
    if (!found) throw new AppError(400, "webhooks.noShopConnection");
    const hooks = getShopWebhooks(found.connection.systemType);
    if (!hooks) throw new AppError(400, "webhooks.unsupported");
    const credentials = openCredentials(this.ctx.credentials, found.connection);
    if (!canAuthenticate(hooks, credentials)) throw new AppError(400, "webhooks.noSecret");
    try {
      const reg = await hooks.register(
        credentials,
        interactiveConnectorContext(this.ctx, companyId, "shop", credentials),
        this.callbackUrl(found.row.token),
      );
      await this.db
        .update(webhookEndpoints)
        .set({ topics: reg.topics, registeredAt: this.ctx.clock.now(), lastError: null })
        .where(eq(webhookEndpoints.id, found.row.id));
    } catch (error) {
      const reason = error instanceof ConnectorError ? error.reason : "unexpected";
      this.ctx.logger.warn({ companyId, reason }, "webhook registration failed");
      await this.db
        .update(webhookEndpoints)
        .set({ registeredAt: null, lastError: reason })
        .where(eq(webhookEndpoints.id, found.row.id));
    }
    return this.status(companyId);
  }

  /** Registration after a shop connection was saved and tested fine; never fails the save. */
  async registerQuietly(companyId: number): Promise<void> {
    try {
      const connection = await findConnection(this.db, companyId, "shop");
      if (!connection?.lastTestOk) return;
      const hooks = getShopWebhooks(connection.systemType);
      if (!hooks || !canAuthenticate(hooks, openCredentials(this.ctx.credentials, connection))) return;
      await this.register(companyId);
    } catch (error) {
      this.ctx.logger.warn({ companyId, err: error }, "webhook registration after save failed");
    }
  }

  /**
   * One delivery: signature first (nothing stored when it fails), then the per-connection cap, then
   * de-duplication by what the vendor signed (or, for a shop without signatures, by order id + status),
   * then the run, coalesced with the connection's other recent deliveries.
   */
  async receive(token: string, rawBody: Buffer, headers: WebhookHeaders): Promise<DeliveryOutcome> {
    const [row] = await this.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.token, token));
    if (!row) return "unknown";
    const connection = await findConnection(this.db, row.companyId, "shop");
    if (!connection || connection.id !== row.connectionId || connection.systemType !== row.systemType)
      return "unknown";
    const hooks = getShopWebhooks(connection.systemType);
    if (!hooks) return "unauthorized";
    const unsigned = hooks.authentication === "url-token";
    let delivery: WebhookDelivery | null;
    if (unsigned) {
      delivery = hooks.verify(rawBody, headers, "");
    } else {
      const secret = hooks.signingSecret(openCredentials(this.ctx.credentials, connection));
      delivery = secret ? hooks.verify(rawBody, headers, secret) : null;
    }
    if (!delivery) return "unauthorized";
    const now = this.ctx.clock.now();
    const [recent] = await this.db
      .select({ n: count() })
      .from(webhookDeliveries)
      .where(
        and(
          eq(webhookDeliveries.endpointId, row.id),
          gt(webhookDeliveries.receivedAt, new Date(now.getTime() - 60_000)),
        ),
      );
    if ((recent?.n ?? 0) >= DELIVERIES_PER_MINUTE) {
      // Nothing stored: a retry after the flood is a new trigger; polling is the safety net meanwhile.
      this.ctx.logger.warn({ companyId: row.companyId }, "webhook deliveries over the per-minute cap");
      return "throttled";
    }
    const windowMs = unsigned ? UNSIGNED_REPEAT_WINDOW_MS : SIGNED_REPEAT_WINDOW_MS;
    // The same key again after the window is a new trigger (the order may have changed back and forth).
    const inserted = await this.db
      .insert(webhookDeliveries)
      .values({
        endpointId: row.id,
        deliveryId: delivery.deliveryId.slice(0, 200),
        topic: delivery.topic,
        receivedAt: now,
      })
      .onConflictDoUpdate({
        target: [webhookDeliveries.endpointId, webhookDeliveries.deliveryId],
        set: { receivedAt: now, topic: delivery.topic },
        setWhere: lt(webhookDeliveries.receivedAt, new Date(now.getTime() - windowMs)),
      })
      .returning({ id: webhookDeliveries.id });
    if (inserted.length === 0) return "duplicate";
    await this.db
      .update(webhookEndpoints)
      .set({ lastDeliveryAt: now })
      .where(eq(webhookEndpoints.id, row.id));
    if (!delivery.isOrder) return "accepted";
    const previous = row.lastDeliveryAt?.getTime();
    if (previous !== undefined && now.getTime() - previous < COALESCE_QUIET_MS) {
      // A burst (several events of one order, or many orders at once): one follow-up run covers them.
      await this.requestRerun(row.id, now);
    } else {
      await this.startOrderRun(row.companyId, row.id);
    }
    return "accepted";
  }

  /** Asks for a follow-up run; the earliest pending request is kept (it bounds the wait). */
  private async requestRerun(endpointId: number, now: Date): Promise<void> {
    await this.db
      .update(webhookEndpoints)
      .set({ rerunRequestedAt: sql`coalesce(${webhookEndpoints.rerunRequestedAt}, ${now})` })
      .where(eq(webhookEndpoints.id, endpointId));
  }

  /** Starts the order run now; when one is queued or running, asks for a follow-up run. */
  private async startOrderRun(companyId: number, endpointId: number): Promise<void> {
    const [job] = await this.db
      .select()
      .from(engineSchema.jobs)
      .where(
        and(
          eq(engineSchema.jobs.companyId, companyId),
          eq(engineSchema.jobs.type, ORDER_JOB),
          // The shop's webhook starts the shop's order job, not a marketplace channel's.
          isNull(engineSchema.jobs.connectionId),
        ),
      );
    if (!job?.isEnabled) return;
    const result = await enqueueRun(this.ctx.engine.deps, companyId, job.id, "webhook");
    if ("alreadyActive" in result) await this.requestRerun(endpointId, this.ctx.clock.now());
  }

  /**
   * Follow-up runs: deliveries that came during an active run, or in a burst, start one more run once
   * the deliveries have been quiet for COALESCE_QUIET_MS (or waited COALESCE_MAX_WAIT_MS) and no order
   * run is active. The request is cleared before the run is queued, so a delivery arriving meanwhile
   * leaves a new request for the next sweep.
   */
  async startRequestedReruns(): Promise<number> {
    const now = this.ctx.clock.now();
    const quietSince = new Date(now.getTime() - COALESCE_QUIET_MS);
    const waitedSince = new Date(now.getTime() - COALESCE_MAX_WAIT_MS);
    const rows = await this.db
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          isNotNull(webhookEndpoints.rerunRequestedAt),
          or(
            isNull(webhookEndpoints.lastDeliveryAt),
            lte(webhookEndpoints.lastDeliveryAt, quietSince),
            lte(webhookEndpoints.rerunRequestedAt, waitedSince),
          ),
        ),
      )
      .limit(100);
    let started = 0;
    for (const row of rows) {
      const requestedAt = row.rerunRequestedAt ?? new Date(0);
      const [job] = await this.db
        .select()
        .from(engineSchema.jobs)
        .where(
          and(
            eq(engineSchema.jobs.companyId, row.companyId),
            eq(engineSchema.jobs.type, ORDER_JOB),
            // The shop's webhook starts the shop's order job, not a marketplace channel's.
            isNull(engineSchema.jobs.connectionId),
          ),
        );
      // The request is cleared only once its run is queued: there is never a moment with neither (a
      // process stopped in between leaves the request, and the next sweep queues a run: one too many,
      // never one too few). A run still active (or queued by another sweep) keeps the request, with its
      // first time, for a later sweep. A delivery arriving before the clear is covered by the queued run.
      const result = job?.isEnabled
        ? await enqueueRun(this.ctx.engine.deps, row.companyId, job.id, "webhook")
        : undefined;
      if (result && "alreadyActive" in result) continue;
      await this.db
        .update(webhookEndpoints)
        .set({ rerunRequestedAt: null })
        .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.rerunRequestedAt, requestedAt)));
      if (result && "runId" in result) started++;
    }
    return started;
  }
}
