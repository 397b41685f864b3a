import type { ShopConnectorModule } from "../sdk/connector-module";
import { createSentosConnector } from "./connector";
import { sentosDescriptor } from "./descriptor";
import { sentosSandbox } from "./sandbox";

export { createSentosConnector, SentosConnector } from "./connector";
export { sentosDescriptor } from "./descriptor";
export { type SentosEmulator, type SentosEmulatorOptions, startSentosEmulator } from "./emulator/server";
export type { SentosGetLimitReading } from "./judge/rules";
export { mapSentosOrder } from "./orders";

export const sentosModule: ShopConnectorModule = {
  sandbox: sentosSandbox,
  descriptor: sentosDescriptor,
  create: createSentosConnector,
};
