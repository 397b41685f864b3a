import type { ShopConnectorModule } from "../sdk/connector-module";
import { createTsoftConnector } from "./connector";
import { tsoftDescriptor } from "./descriptor";
import { tsoftSandbox } from "./sandbox";

export { createTsoftConnector, TsoftConnector } from "./connector";
export { tsoftDescriptor } from "./descriptor";
export { startTsoftEmulator, type TsoftEmulator, type TsoftEmulatorOptions } from "./emulator/server";
export { mapTsoftOrder } from "./orders";

export const tsoftModule: ShopConnectorModule = {
  sandbox: tsoftSandbox,
  descriptor: tsoftDescriptor,
  create: createTsoftConnector,
};
