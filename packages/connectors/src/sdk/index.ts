export * from "./async-batch";
export * from "./check";
export * from "./check-answers";
export {
  ComposedShopConnector,
  type ShopOrderPart,
  type ShopProductPart,
  type ShopStockPricePart,
} from "./composed-shop";
export * from "./connector";
export * from "./connector-module";
export * from "./einvoice";
export { EInvoiceServiceConnector, NotAProductSourceConnector } from "./einvoice-connector";
export * from "./errors";
export * from "./http";
export * from "./listing";
export * from "./logging";
export * from "./metering";
export * from "./model";
export * from "./rate-limit";
export { ReadOnlyShopConnector } from "./read-only-shop";
export * from "./skeleton";
export * from "./soap";
export * from "./sql";
export * from "./sql-parser";
export * from "./status-words";
export * from "./turkish-time";
export * from "./util";
export * from "./version-pin";
