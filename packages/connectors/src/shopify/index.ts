import type { ShopConnectorModule } from "../sdk/connector-module";
import { createShopifyConnector } from "./connector";
import { shopifyDescriptor } from "./descriptor";
import { shopifyWebhooks } from "./webhooks";

export {
  exchangeShopifyCode,
  shopifyAuthorizeUrl,
  shopifyQueryHmac,
  verifyShopifyCallback,
  verifyShopifyWebhook,
} from "./auth";
export { BULK_THRESHOLD, parseBulkCatalog } from "./catalog";
export { classifyShopifyResponse, normalizeShopDomain, ShopifyClient } from "./client";
export { createShopifyConnector, ShopifyConnector } from "./connector";
export { SHOPIFY_API_VERSION, shopifyDescriptor } from "./descriptor";
export * from "./emulator/server";
export { ShopifyState } from "./emulator/state";
export { mapShopifyOrder, SHOPIFY_ORDER_STATUSES } from "./orders";

export {
  registerShopifyWebhooks,
  SHOPIFY_ORDER_TOPICS,
  shopifyWebhooks,
  verifyShopifyDelivery,
} from "./webhooks";

import { shopifySandbox } from "./sandbox";

export const shopifyModule: ShopConnectorModule = {
  sandbox: shopifySandbox,
  descriptor: shopifyDescriptor,
  create: createShopifyConnector,
  webhooks: shopifyWebhooks,
};
