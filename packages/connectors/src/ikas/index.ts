import type { ShopConnectorModule } from "../sdk/connector";
import { createIkasConnector } from "./connector";
import { ikasDescriptor } from "./descriptor";

export { classifyIkasResponse, createIkasConnector, IkasConnector, mapIkasOrder } from "./connector";
export { IKAS_DEFAULT_API_URL, IKAS_DEFAULT_PRICE_LIST, ikasDescriptor, ikasTokenUrl } from "./descriptor";
export * from "./emulator/server";
export { IkasState } from "./emulator/state";

export const ikasModule: ShopConnectorModule = { descriptor: ikasDescriptor, create: createIkasConnector };
