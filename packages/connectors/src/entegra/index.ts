import type { ErpConnectorModule } from "../sdk/connector";
import { createEntegraConnector } from "./connector";
import { entegraDescriptor } from "./descriptor";

export { createEntegraConnector, EntegraConnector } from "./connector";
export { entegraDescriptor } from "./descriptor";
export * from "./emulator/server";

export const entegraModule: ErpConnectorModule = {
  descriptor: entegraDescriptor,
  create: createEntegraConnector,
};
