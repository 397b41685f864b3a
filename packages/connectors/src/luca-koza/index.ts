import type { ErpConnectorModule } from "../sdk/connector-module";
import { createLucaKozaConnector } from "./connector";
import { lucaKozaDescriptor } from "./descriptor";
import { lucaKozaSandbox } from "./sandbox";

export { createLucaKozaConnector, LucaKozaConnector } from "./connector";
export { lucaKozaDescriptor } from "./descriptor";
export * from "./emulator/server";

export const lucaKozaModule: ErpConnectorModule = {
  sandbox: lucaKozaSandbox,
  descriptor: lucaKozaDescriptor,
  create: createLucaKozaConnector,
};
