import type { ShopConnectorModule } from "../sdk/connector-module";
import { createHepsiburadaConnector } from "./connector";
import { hepsiburadaDescriptor } from "./descriptor";
import { hepsiburadaSandbox } from "./sandbox";

export { createHepsiburadaConnector, HepsiburadaConnector } from "./connector";
export { hepsiburadaDescriptor } from "./descriptor";
export {
  type HepsiburadaEmulator,
  type HepsiburadaEmulatorOptions,
  startHepsiburadaEmulator,
} from "./emulator/server";
export { mapHepsiburadaOrder } from "./orders";
export { hepsiburadaSandbox } from "./sandbox";

export const hepsiburadaModule: ShopConnectorModule = {
  sandbox: hepsiburadaSandbox,
  descriptor: hepsiburadaDescriptor,
  create: createHepsiburadaConnector,
};
