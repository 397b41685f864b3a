import type { ErpConnectorModule } from "../sdk/connector";
import { createD365Connector } from "./connector";
import { d365Descriptor } from "./descriptor";

export { classifyD365Response, parseVatGroups } from "./client";
export { createD365Connector, D365Connector } from "./connector";
export { d365Descriptor, d365TokenUrl } from "./descriptor";
export * from "./emulator/server";

export const d365Module: ErpConnectorModule = { descriptor: d365Descriptor, create: createD365Connector };
