import type { ShopConnectorModule } from "../sdk/connector";
import { createSentosConnector } from "./connector";
import { sentosDescriptor } from "./descriptor";

export { createSentosConnector, SentosConnector } from "./connector";
export { sentosDescriptor } from "./descriptor";
export { type SentosEmulator, type SentosEmulatorOptions, startSentosEmulator } from "./emulator/server";
export type { SentosGetLimitReading } from "./judge/rules";
export { mapSentosOrder } from "./orders";

export const sentosModule: ShopConnectorModule = {
  descriptor: sentosDescriptor,
  create: createSentosConnector,
};
