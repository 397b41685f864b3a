import type { ShopConnectorModule } from "../sdk/connector";
import { createSopyoConnector } from "./connector";
import { sopyoDescriptor } from "./descriptor";

export { createSopyoConnector, SopyoConnector } from "./connector";
export { SOPYO_DEFAULT_API_URL, sopyoDescriptor } from "./descriptor";
export { type SopyoEmulator, type SopyoEmulatorOptions, startSopyoEmulator } from "./emulator/server";
export { mapSopyoOrder, unwrapDetail } from "./orders";

export const sopyoModule: ShopConnectorModule = { descriptor: sopyoDescriptor, create: createSopyoConnector };
