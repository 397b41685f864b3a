import type { ErpConnectorModule } from "../sdk/connector";
import { createShopierConnector } from "./connector";
import { shopierDescriptor } from "./descriptor";

export { verifyShopierWebhook } from "./client";
export { createShopierConnector, ShopierConnector } from "./connector";
export { shopierDescriptor } from "./descriptor";
export * from "./emulator/server";

export const shopierModule: ErpConnectorModule = {
  descriptor: shopierDescriptor,
  create: createShopierConnector,
};
