import type { ErpConnectorModule } from "../sdk/connector-module";
import { createLogoConnector } from "./connector";
import { logoRestDescriptor, logoTigerDescriptor } from "./descriptor";

export { createLogoConnector, LogoConnector } from "./connector";
export { logoRestDescriptor, logoTigerDescriptor } from "./descriptor";
export * from "./emulator/rest";
export * from "./emulator/sql";

export const logoModules: ErpConnectorModule[] = [logoRestDescriptor, logoTigerDescriptor].map(
  (descriptor) => ({
    descriptor,
    create: createLogoConnector(descriptor),
  }),
);
