import type { ErpConnectorModule } from "../sdk/connector";
import { createIsbasiConnector } from "./connector";
import { isbasiDescriptor } from "./descriptor";

export { classifyIsbasiResponse } from "./api";
export { createIsbasiConnector, IsbasiConnector } from "./connector";
export { isbasiDescriptor } from "./descriptor";
export * from "./emulator/server";

export const isbasiModule: ErpConnectorModule = {
  descriptor: isbasiDescriptor,
  create: createIsbasiConnector,
};
