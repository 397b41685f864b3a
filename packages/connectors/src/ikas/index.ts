import type { ShopConnectorModule } from "../sdk/connector-module";
import { createIkasConnector } from "./connector";
import { ikasDescriptor } from "./descriptor";
import { ikasWebhooks } from "./webhooks";

export { classifyIkasResponse, createIkasConnector, IkasConnector, mapIkasOrder } from "./connector";
export { IKAS_DEFAULT_API_URL, IKAS_DEFAULT_PRICE_LIST, ikasDescriptor, ikasTokenUrl } from "./descriptor";
export * from "./emulator/server";
export { IkasState } from "./emulator/state";

export {
  IKAS_ORDER_SCOPES,
  ikasWebhookSignature,
  ikasWebhooks,
  registerIkasWebhooks,
  verifyIkasDelivery,
} from "./webhooks";

import { ikasSandbox } from "./sandbox";

export const ikasModule: ShopConnectorModule = {
  sandbox: ikasSandbox,
  descriptor: ikasDescriptor,
  create: createIkasConnector,
  webhooks: ikasWebhooks,
};
