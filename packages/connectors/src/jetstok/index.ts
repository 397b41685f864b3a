import type { ShopConnectorModule } from "../sdk/connector-module";
import { createJetStokConnector, jetstokDescriptor } from "./connector";
import { writeJetStokStockFile } from "./files";
import { checkJetStokOrderRows } from "./layout";
import { jetstokSandbox } from "./sandbox";

export {
  createJetStokConnector,
  JETSTOK_LOCATION_ID,
  JETSTOK_PANEL_URL,
  JetStokConnector,
  jetstokDescriptor,
} from "./connector";
export { type JetStokPanel, type PanelOrder, startJetStokPanel } from "./emulator/panel";
export { InMemoryShopFiles, mergeStockRows, writeJetStokStockFile } from "./files";
export {
  checkJetStokOrderRows,
  JETSTOK_ORDER_COLUMNS,
  JETSTOK_STOCK_COLUMNS,
  JETSTOK_STOCK_SHEET,
  ordersFromFiles,
} from "./layout";

export const jetstokModule: ShopConnectorModule = {
  descriptor: jetstokDescriptor,
  create: createJetStokConnector,
  sandbox: jetstokSandbox,
  files: {
    checkOrderRows: checkJetStokOrderRows,
    writeStockFile: writeJetStokStockFile,
    stockFileName: "jetstok-stok-fiyat",
  },
};
