import type { ErpConnectorModule } from "../sdk/connector-module";
import { createShopierConnector } from "./connector";
import { shopierDescriptor } from "./descriptor";
import { shopierSandbox } from "./sandbox";

export { verifyShopierWebhook } from "./client";
export { createShopierConnector, ShopierConnector } from "./connector";
export { shopierDescriptor } from "./descriptor";
export * from "./emulator/server";

export const shopierModule: ErpConnectorModule = {
  sandbox: shopierSandbox,
  descriptor: shopierDescriptor,
  create: createShopierConnector,
};
