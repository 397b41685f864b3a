import type { ErpConnectorModule } from "../sdk/connector-module";
import { EInvoiceServiceConnector } from "../sdk/einvoice-connector";
import { trendyolEFaturamDescriptor } from "./descriptor";
import { createTrendyolEFaturamProvider, TrendyolEFaturamProvider } from "./provider";

export { TRENDYOL_EFATURAM_LIVE, TRENDYOL_EFATURAM_STAGE, trendyolEFaturamDescriptor } from "./descriptor";
export {
  startTrendyolEFaturamEmulator,
  TRENDYOL_EFATURAM_TEST_ACCOUNT,
  type TrendyolEFaturamEmulator,
} from "./emulator/server";
export { judgeTrendyolEFaturamRequest } from "./judge/requests";
export {
  createTrendyolEFaturamProvider,
  TRENDYOL_STATUS,
  TrendyolEFaturamProvider,
  trendyolInvoiceBody,
} from "./provider";

/** Trendyol e-Faturam (24): an e-invoice service listed among the ERPs. */
export const trendyolEFaturamModule: ErpConnectorModule = {
  descriptor: trendyolEFaturamDescriptor,
  create: (credentials, ctx) =>
    new EInvoiceServiceConnector(new TrendyolEFaturamProvider(credentials, ctx), trendyolEFaturamDescriptor),
  einvoice: createTrendyolEFaturamProvider,
};
