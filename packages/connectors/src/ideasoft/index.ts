import type { ShopConnectorModule } from "../sdk/connector";
import { createIdeasoftConnector } from "./connector";
import { ideasoftDescriptor } from "./descriptor";

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
export { IDEASOFT_ORDER_STATUSES, mapIdeasoftOrder } from "./orders";

export const ideasoftModule: ShopConnectorModule = {
  descriptor: ideasoftDescriptor,
  create: createIdeasoftConnector,
};
