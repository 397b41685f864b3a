import { randomBytes } from "node:crypto";
import {
  ConnectorError,
  getShopWebhooks,
  type ShopWebhooks,
  type WebhookDelivery,
  type WebhookHeaders,
} from "@ep/connectors";
import { engineSchema, enqueueRun } from "@ep/engine";
import { and, count, eq, gt, isNotNull, lt, lte } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { AppError } from "../../platform/http/envelope.ts";
import { interactiveConnectorContext } from "../connections/connector-factory.ts";
import { findConnection, openCredentials } from "../connections/repository.ts";
import { webhookDeliveries, webhookEndpoints } from "./schema.ts";

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export interface WebhookStatus {
  /** The shop system publishes order webhooks we can register and verify. */
  supported: boolean;
  registered: boolean;
  registeredAt: string | null;
  lastDeliveryAt: string | null;
  topics: string[];
  lastError: string | null;
}

export type DeliveryOutcome = "unknown" | "unauthorized" | "duplicate" | "throttled" | "accepted";

const ORDER_JOB = "OrderIntegration";

/**
 * Unsigned deliveries (a shop that documents no signature, Ideasoft): the same key (order id + status)
 * again within this window is a repeat; after it, a new trigger.
 */
export const UNSIGNED_REPEAT_WINDOW_MS = 10 * 60_000;
/** Unsigned deliveries accepted per connection per minute; beyond it they start nothing (429). */
export const UNSIGNED_DELIVERIES_PER_MINUTE = 30;

/** Whether the shop's deliveries can be checked: a signing secret, or URL-token authentication. */
function canAuthenticate(hooks: ShopWebhooks, credentials: Record<string, string>): boolean {
  return hooks.authentication === "url-token" || !!hooks.signingSecret(credentials);
}

/**
 * Orders by webhook: one endpoint per shop connection behind an unguessable token. A delivery is
 * verified before anything is read or stored, de-duplicated by the shop's delivery id, and starts the
 * company's order run at once; a run already under way gets a follow-up run (never a parallel one).
 * The 5-minute schedule keeps polling as the safety net.
 */
export class WebhookService {
  private readonly db;

  constructor(private readonly ctx: AppContext) {
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
   * One delivery: signature first (nothing stored when it fails), then de-duplication, then the run.
   * A shop without signatures (URL-token authentication) gets, instead of the signature, a repeat
   * window on its order id + status and a per-connection cap on accepted deliveries.
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
    const values = {
      endpointId: row.id,
      deliveryId: delivery.deliveryId.slice(0, 200),
      topic: delivery.topic,
      receivedAt: now,
    };
    let inserted: Array<{ id: number }>;
    if (unsigned) {
      const [recent] = await this.db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.endpointId, row.id),
            gt(webhookDeliveries.receivedAt, new Date(now.getTime() - 60_000)),
          ),
        );
      if ((recent?.n ?? 0) >= UNSIGNED_DELIVERIES_PER_MINUTE) {
        // Nothing stored: a retry after the flood is a new trigger; polling is the safety net meanwhile.
        this.ctx.logger.warn({ companyId: row.companyId }, "unsigned webhook deliveries over the cap");
        return "throttled";
      }
      // The same key again after the window is a new trigger (the order may have changed back and forth).
      inserted = await this.db
        .insert(webhookDeliveries)
        .values(values)
        .onConflictDoUpdate({
          target: [webhookDeliveries.endpointId, webhookDeliveries.deliveryId],
          set: { receivedAt: now, topic: delivery.topic },
          setWhere: lt(webhookDeliveries.receivedAt, new Date(now.getTime() - UNSIGNED_REPEAT_WINDOW_MS)),
        })
        .returning({ id: webhookDeliveries.id });
    } else {
      inserted = await this.db
        .insert(webhookDeliveries)
        .values(values)
        .onConflictDoNothing()
        .returning({ id: webhookDeliveries.id });
    }
    if (inserted.length === 0) return "duplicate";
    await this.db
      .update(webhookEndpoints)
      .set({ lastDeliveryAt: now })
      .where(eq(webhookEndpoints.id, row.id));
    if (delivery.isOrder) await this.startOrderRun(row.companyId, row.id);
    return "accepted";
  }

  /** Starts the order run now; when one is queued or running, asks for a follow-up run. */
  private async startOrderRun(companyId: number, endpointId: number): Promise<void> {
    const [job] = await this.db
      .select()
      .from(engineSchema.jobs)
      .where(and(eq(engineSchema.jobs.companyId, companyId), eq(engineSchema.jobs.type, ORDER_JOB)));
    if (!job?.isEnabled) return;
    const result = await enqueueRun(this.ctx.engine.deps, companyId, job.id, "webhook");
    if ("alreadyActive" in result) {
      await this.db
        .update(webhookEndpoints)
        .set({ rerunRequestedAt: this.ctx.clock.now() })
        .where(eq(webhookEndpoints.id, endpointId));
    }
  }

  /**
   * Follow-up runs: a delivery that came while the order run was active starts one more run once that
   * run has ended. A request made after this sweep read the row stays for the next sweep.
   */
  async startRequestedReruns(): Promise<number> {
    const rows = await this.db
      .select()
      .from(webhookEndpoints)
      .where(isNotNull(webhookEndpoints.rerunRequestedAt))
      .limit(100);
    let started = 0;
    for (const row of rows) {
      const [job] = await this.db
        .select()
        .from(engineSchema.jobs)
        .where(and(eq(engineSchema.jobs.companyId, row.companyId), eq(engineSchema.jobs.type, ORDER_JOB)));
      if (job?.isEnabled) {
        const result = await enqueueRun(this.ctx.engine.deps, row.companyId, job.id, "webhook");
        if ("alreadyActive" in result) continue;
        started++;
      }
      await this.db
        .update(webhookEndpoints)
        .set({ rerunRequestedAt: null })
        .where(
          and(
            eq(webhookEndpoints.id, row.id),
            lte(webhookEndpoints.rerunRequestedAt, row.rerunRequestedAt ?? new Date(0)),
          ),
        );
    }
    return started;
  }
}
