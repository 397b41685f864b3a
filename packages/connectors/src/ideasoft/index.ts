import type { ShopConnectorModule } from "../sdk/connector-module";
import { createIdeasoftConnector } from "./connector";
import { ideasoftDescriptor } from "./descriptor";
import { ideasoftWebhooks } from "./webhooks";

export {
  exchangeIdeasoftCode,
  ideasoftAuthorizeUrl,
  ideasoftTokenUrl,
  requestIdeasoftToken,
  type TokenAnswer as IdeasoftTokenAnswer,
} from "./client";
export { createIdeasoftConnector, IDEASOFT_STOCK_LOCATION, IdeasoftConnector } from "./connector";
export { IDEASOFT_DEFAULT_PRICE_LIST, ideasoftDescriptor, ideasoftStoreUrl } from "./descriptor";
export * from "./emulator/server";
export { type IdeasoftJudge, ideasoftJudge } from "./judge/openapi";
export { IDEASOFT_ORDER_STATUSES, mapIdeasoftOrder } from "./orders";
export {
  IDEASOFT_ORDER_TOPICS,
  ideasoftWebhooks,
  readIdeasoftDelivery,
  registerIdeasoftWebhooks,
} from "./webhooks";

import { ideasoftSandbox } from "./sandbox";

export const ideasoftModule: ShopConnectorModule = {
  sandbox: ideasoftSandbox,
  descriptor: ideasoftDescriptor,
  create: createIdeasoftConnector,
  webhooks: ideasoftWebhooks,
};
