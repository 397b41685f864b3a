import type { ShopConnectorModule } from "../sdk/connector";
import { createTsoftConnector } from "./connector";
import { tsoftDescriptor } from "./descriptor";

export { createTsoftConnector, TsoftConnector } from "./connector";
export { tsoftDescriptor } from "./descriptor";
export { startTsoftEmulator, type TsoftEmulator, type TsoftEmulatorOptions } from "./emulator/server";
export { mapTsoftOrder } from "./orders";

export const tsoftModule: ShopConnectorModule = { descriptor: tsoftDescriptor, create: createTsoftConnector };
