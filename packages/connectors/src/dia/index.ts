import type { ErpConnectorModule } from "../sdk/connector";
import { createDiaConnector } from "./connector";
import { diaDescriptor } from "./descriptor";

export { classifyDiaResponse } from "./api";
export { createDiaConnector, DiaConnector } from "./connector";
export { diaDescriptor } from "./descriptor";
export * from "./emulator/server";

export const diaModule: ErpConnectorModule = { descriptor: diaDescriptor, create: createDiaConnector };
