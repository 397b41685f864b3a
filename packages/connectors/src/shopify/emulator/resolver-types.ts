/** The shapes the Shopify emulator's root resolvers share (split by concern over resolvers*.ts). */

import type { WebhookOutbox } from "../../testing/webhooks";
import type { ShopifyState } from "./state";

export type Resolver = (args: Record<string, unknown>) => unknown;

export interface ResolverDeps {
  state: ShopifyState;
  stats: { stockCalls: number; stockItems: number; priceCalls: number; priceItems: number };
  startBulk(query: string): { id: string; status: string } | { error: { message: string; code: string } };
  bulkNode(id: string): Record<string, unknown> | undefined;
  webhooks: WebhookOutbox;
}

export type UserError = { field: string[] | null; message: string; code?: string };
