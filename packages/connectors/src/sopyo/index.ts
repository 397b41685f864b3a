import type { ShopConnectorModule } from "../sdk/connector-module";
import { createSopyoConnector } from "./connector";
import { sopyoDescriptor } from "./descriptor";
import { sopyoSandbox } from "./sandbox";

export { createSopyoConnector, SopyoConnector } from "./connector";
export { SOPYO_DEFAULT_API_URL, sopyoDescriptor } from "./descriptor";
export { type SopyoEmulator, type SopyoEmulatorOptions, startSopyoEmulator } from "./emulator/server";
export { mapSopyoOrder, unwrapDetail } from "./orders";

export const sopyoModule: ShopConnectorModule = {
  sandbox: sopyoSandbox,
  descriptor: sopyoDescriptor,
  create: createSopyoConnector,
};
