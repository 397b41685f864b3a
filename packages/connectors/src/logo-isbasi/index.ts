import type { ErpConnectorModule } from "../sdk/connector-module";
import { createIsbasiConnector } from "./connector";
import { isbasiDescriptor } from "./descriptor";
import { isbasiSandbox } from "./sandbox";

export { classifyIsbasiResponse } from "./api";
export { createIsbasiConnector, IsbasiConnector } from "./connector";
export { isbasiDescriptor } from "./descriptor";
export * from "./emulator/server";

export const isbasiModule: ErpConnectorModule = {
  sandbox: isbasiSandbox,
  descriptor: isbasiDescriptor,
  create: createIsbasiConnector,
};
