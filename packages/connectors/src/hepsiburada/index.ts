import type { ShopConnectorModule } from "../sdk/connector";
import { createHepsiburadaConnector } from "./connector";
import { hepsiburadaDescriptor } from "./descriptor";

export { createHepsiburadaConnector, HepsiburadaConnector } from "./connector";
export { hepsiburadaDescriptor } from "./descriptor";
export {
  type HepsiburadaEmulator,
  type HepsiburadaEmulatorOptions,
  startHepsiburadaEmulator,
} from "./emulator/server";
export { mapHepsiburadaOrder } from "./orders";

export const hepsiburadaModule: ShopConnectorModule = {
  descriptor: hepsiburadaDescriptor,
  create: createHepsiburadaConnector,
};
