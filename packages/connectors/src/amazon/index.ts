import type { ShopConnectorModule } from "../sdk/connector-module";
import { createAmazonConnector } from "./connector";
import { amazonDescriptor } from "./descriptor";
import { amazonSandbox } from "./sandbox";

export { AmazonConnector, createAmazonConnector } from "./connector";
export { AMAZON_LISTINGS_FEED_LIMIT, AMAZON_USAGE_PLANS, amazonDescriptor } from "./descriptor";
export { type AmazonEmulator, type AmazonEmulatorOptions, startAmazonEmulator } from "./emulator/server";
export { mapAmazonOrder } from "./orders";
export { amazonSandbox } from "./sandbox";

export const amazonModule: ShopConnectorModule = {
  sandbox: amazonSandbox,
  descriptor: amazonDescriptor,
  create: createAmazonConnector,
};
