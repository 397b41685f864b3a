/**
 * Where the Sentos judge's evidence comes from: public code that calls the live API and cites its docs
 * (api.sentos.com.tr/docs v1.5). The code index names it by code id only; it is read, never copied.
 */

import type { CodeSource } from "../../testing/judge-fixtures";

export type Source = CodeSource;

export const SENTOS_BRIDGE: Source = {
  codeId: "70268014554",
  file: "TypeScript Sentos bridge (SentosClient: call, listProducts, listWarehouses, listOrders, getOrder)",
};
