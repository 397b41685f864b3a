import type { ErpConnectorModule } from "../sdk/connector-module";
import { createEntegraConnector } from "./connector";
import { entegraDescriptor } from "./descriptor";
import { entegraSandbox } from "./sandbox";

export { createEntegraConnector, EntegraConnector } from "./connector";
export { entegraDescriptor } from "./descriptor";
export * from "./emulator/server";

export const entegraModule: ErpConnectorModule = {
  sandbox: entegraSandbox,
  descriptor: entegraDescriptor,
  create: createEntegraConnector,
};
