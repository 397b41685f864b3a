import type { ShopConnectorModule } from "../sdk/connector-module";
import { createTrendyolConnector } from "./connector";
import { trendyolDescriptor } from "./descriptor";
import { trendyolSandbox } from "./sandbox";

export { createTrendyolConnector, TrendyolConnector } from "./connector";
export { trendyolDescriptor } from "./descriptor";
export {
  startTrendyolEmulator,
  type TrendyolEmulator,
  type TrendyolEmulatorOptions,
} from "./emulator/server";
export { mapTrendyolPackage } from "./orders";
export { trendyolSandbox } from "./sandbox";

export const trendyolModule: ShopConnectorModule = {
  sandbox: trendyolSandbox,
  descriptor: trendyolDescriptor,
  create: createTrendyolConnector,
};
