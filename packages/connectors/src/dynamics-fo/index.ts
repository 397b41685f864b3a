import type { ErpConnectorModule } from "../sdk/connector-module";
import { createD365Connector } from "./connector";
import { d365Descriptor } from "./descriptor";
import { d365Sandbox } from "./sandbox";

export { classifyD365Response, parseVatGroups } from "./client";
export { createD365Connector, D365Connector } from "./connector";
export { d365Descriptor, d365TokenUrl } from "./descriptor";
export * from "./emulator/server";

export const d365Module: ErpConnectorModule = {
  sandbox: d365Sandbox,
  descriptor: d365Descriptor,
  create: createD365Connector,
};
