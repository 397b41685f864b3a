import type { ErpConnectorModule } from "../sdk/connector";
import { createLucaKozaConnector } from "./connector";
import { lucaKozaDescriptor } from "./descriptor";

export { createLucaKozaConnector, LucaKozaConnector } from "./connector";
export { lucaKozaDescriptor } from "./descriptor";
export * from "./emulator/server";

export const lucaKozaModule: ErpConnectorModule = {
  descriptor: lucaKozaDescriptor,
  create: createLucaKozaConnector,
};
