import type { ErpConnectorModule } from "../sdk/connector-module";
import { createGenericSqlConnector } from "./connector";
import { genericSqlDescriptors } from "./descriptor";

export * from "./config";
export { createGenericSqlConnector, dialectOf, GenericSqlConnector, type QueryPreview } from "./connector";
export { genericSqlDescriptor, genericSqlDescriptors } from "./descriptor";
export * from "./mapping";

export const genericSqlModules: ErpConnectorModule[] = genericSqlDescriptors.map((descriptor) => ({
  descriptor,
  create: createGenericSqlConnector(descriptor),
}));
