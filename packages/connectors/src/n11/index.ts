import type { ShopConnectorModule } from "../sdk/connector-module";
import { createN11Connector } from "./connector";
import { n11Descriptor } from "./descriptor";
import { n11Sandbox } from "./sandbox";

export { createN11Connector, N11Connector } from "./connector";
export { n11Descriptor } from "./descriptor";
export { type N11Emulator, type N11EmulatorOptions, startN11Emulator } from "./emulator/server";
export { mapN11Package } from "./orders";
export { n11Sandbox } from "./sandbox";

export const n11Module: ShopConnectorModule = {
  sandbox: n11Sandbox,
  descriptor: n11Descriptor,
  create: createN11Connector,
};
