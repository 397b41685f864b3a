import type { ErpConnectorModule } from "../sdk/connector";
import { createNetsisConnector } from "./connector";
import { netsisDescriptor } from "./descriptor";

export { classifyNetsisResponse } from "./api";
export { createNetsisConnector, NetsisConnector } from "./connector";
export { netsisDescriptor } from "./descriptor";
export * from "./emulator/server";

export const netsisModule: ErpConnectorModule = {
  descriptor: netsisDescriptor,
  create: createNetsisConnector,
};
