import type { ErpConnectorModule } from "../sdk/connector-module";
import { createWolvoxConnector } from "./connector";
import { wolvoxDescriptors } from "./descriptor";

export { createWolvoxConnector, WolvoxConnector, type WolvoxSettings, wolvoxSettings } from "./connector";
export { wolvoxDescriptor, wolvoxDescriptors } from "./descriptor";
export { judgeSql, judgeStatements, type SqlConformanceReport } from "./judge/judge";
export { LEDGER_TABLES, WOLVOX_SCHEMA_SOURCE, WOLVOX_TABLES, WRITABLE_TABLES } from "./judge/schema";

export const wolvoxModules: ErpConnectorModule[] = wolvoxDescriptors.map((descriptor) => ({
  descriptor,
  create: createWolvoxConnector(descriptor),
}));
