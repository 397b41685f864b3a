/** What a Shopify emulator takes and hands its test: options, credentials, counters and controls. */

import type { EmulatorCounters, FaultConfig } from "../../testing/faults";
import type { Emulator, EmulatorOptions } from "../../testing/server";
import type { WebhookOutbox } from "../../testing/webhooks";
import type { CostBucket } from "./cost";
import type { ShopifyOrderRow, ShopifyState } from "./state";

export interface ShopifyEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  shopDomain?: string;
  accessToken?: string;
  /** The app's credentials: OAuth code exchange, client credentials grant and refresh. */
  clientId?: string;
  clientSecret?: string;
  /** Lifetime of a client-credentials token (Shopify: 86,399 s) and of an expiring offline token (3,600 s). */
  clientCredentialsTtlS?: number;
  expiringTtlS?: number;
  /**
   * After a refresh, the previous refresh token stays valid until the new one is used ("retain", Shopify
   * since 2026-08-28) or dies at once ("strict", before). The contract suite runs both.
   */
  refreshRotation?: "retain" | "strict";
  /**
   * The documented side ("documented", default): no `@idempotent` → BAD_REQUEST, a key seen before is
   * answered from its first result. The side one developer observed right after 2026-04 ("observed"):
   * neither enforced nor de-duplicated (community.shopify.dev topic 27124).
   */
  idempotency?: "documented" | "observed";
  /** Leaky bucket (Standard plan: 2,000 points, 100/s — inferred). `false` = no cost limit. */
  bucket?: { maximumAvailable: number; restoreRate: number } | false;
  /** A single query above this cost is refused (MAX_COST_EXCEEDED; Shopify: 1,000). */
  maxQueryCost?: number;
  /** Polls of a bulk operation before it completes (default 1). */
  bulkPolls?: number;
}

export type ShopifyEmulatorCredentials = {
  shopDomain: string;
  accessToken: string;
  apiBaseUrl: string;
  /** The custom app's API secret key: signs webhook deliveries. */
  apiSecretKey: string;
};

export interface ShopifyEmulatorCounters extends EmulatorCounters {
  stockCalls: number;
  stockItems: number;
  priceCalls: number;
  priceItems: number;
  throttled: number;
  pointsCharged: number;
  bulkOperations: number;
  /** Mutations answered from an earlier call with the same idempotency key (not applied again). */
  idempotentReplays: number;
  /** Calls refused by a runtime rule (e.g. a missing @idempotent directive). */
  ruleRefusals: number;
  tokensIssued: number;
}

export interface ShopifyEmulator extends Emulator<ShopifyEmulatorCounters> {
  credentials: ShopifyEmulatorCredentials;
  state: ShopifyState;
  bucket?: CostBucket;
  setFaults(config: FaultConfig): void;
  /** The merchant uninstalled the app / rotated the token: every call answers 401. */
  revokeToken(): void;
  /** Every issued (expiring) token ends now; the legacy token is not touched. */
  expireTokens(): void;
  /** The Dev Dashboard / public app's client id and secret. */
  appCredentials: { clientId: string; clientSecret: string };
  /** A public app's install with expiring offline tokens: the token pair Shopify's code exchange gives. */
  installExpiring(): { accessToken: string; refreshToken: string; expiresAt: number };
  /** A single-use authorization code, as Shopify's redirect to the app's callback carries it. */
  issueAuthCode(): string;
  /** New orders; each is delivered to the `orders/create` webhook subscribers. */
  generateOrders(n: number): ShopifyOrderRow[];
  /** Webhook subscriptions and deliveries (`webhooks.idle()` waits for deliveries under way). */
  webhooks: WebhookOutbox;
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
  batchWriteStats(): { stock: { calls: number; items: number }; prices: { calls: number; items: number } };
  resetCounters(): void;
}
