import type { ShopConnectorModule } from "../sdk/connector";
import { createTrendyolConnector } from "./connector";
import { trendyolDescriptor } from "./descriptor";

export { createTrendyolConnector, TrendyolConnector } from "./connector";
export { trendyolDescriptor } from "./descriptor";
export {
  startTrendyolEmulator,
  type TrendyolEmulator,
  type TrendyolEmulatorOptions,
} from "./emulator/server";
export { mapTrendyolPackage } from "./orders";

export const trendyolModule: ShopConnectorModule = {
  descriptor: trendyolDescriptor,
  create: createTrendyolConnector,
};
