/**
 * The registration lists Uyumsoft (8) and UyumsoftPortal (18) among the ERPs, so the engine builds them
 * as ERP connectors. They are e-invoice services: the connection test is real (WhoAmI), every catalogue
 * or order call fails as "unsupported" with the panel's words "e-fatura servisi: ürün kaynağı değildir",
 * and the e-invoice work goes through `provider` (an `EInvoiceProvider`).
 */

import { message } from "@ep/contracts";
import type {
  ConnectionInfo,
  ConnectorContext,
  ConnectorDescriptor,
  Credentials,
  ErpConnector,
  ErpCustomerRef,
  ErpOrderRef,
} from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type {
  Category,
  Invoice,
  Page,
  Price,
  PriceGroup,
  Product,
  StockLevel,
  StockLocation,
} from "../sdk/model";
import { NOT_A_PRODUCT_SOURCE, uyumsoftDescriptor, uyumsoftPortalDescriptor } from "./descriptor";
import { UyumsoftProvider } from "./provider";

export class UyumsoftConnector implements ErpConnector {
  readonly provider: UyumsoftProvider;

  constructor(
    credentials: Credentials,
    ctx: ConnectorContext,
    readonly descriptor: ConnectorDescriptor = uyumsoftDescriptor,
  ) {
    this.provider = new UyumsoftProvider(credentials, ctx, descriptor);
  }

  testConnection(): Promise<ConnectionInfo> {
    return this.provider.testConnection();
  }

  private notASource(operation: string): Promise<never> {
    return Promise.reject(
      new ConnectorError(`${this.descriptor.name}: ${NOT_A_PRODUCT_SOURCE}`, {
        reason: "unsupported",
        merchantMessage: message("connectors.einvoiceNotProductSource"),
        system: this.descriptor.system,
        operation,
      }),
    );
  }

  listProducts(): Promise<Page<Product>> {
    return this.notASource("listProducts");
  }
  listStock(): Promise<Page<StockLevel>> {
    return this.notASource("listStock");
  }
  listPrices(): Promise<Page<Price>> {
    return this.notASource("listPrices");
  }
  listCategories(): Promise<Page<Category>> {
    return this.notASource("listCategories");
  }
  listPriceGroups(): Promise<PriceGroup[]> {
    return this.notASource("listPriceGroups");
  }
  listStockLocations(): Promise<StockLocation[]> {
    return this.notASource("listStockLocations");
  }
  findOrderByRef(): Promise<ErpOrderRef | null> {
    return this.notASource("findOrderByRef");
  }
  createCustomer(): Promise<ErpCustomerRef> {
    return this.notASource("createCustomer");
  }
  createSalesOrder(): Promise<ErpOrderRef> {
    return this.notASource("createSalesOrder");
  }
  listInvoicesForOrder(): Promise<Invoice[]> {
    return this.notASource("listInvoicesForOrder");
  }
}

export const createUyumsoftConnector = (credentials: Credentials, ctx: ConnectorContext) =>
  new UyumsoftConnector(credentials, ctx, uyumsoftDescriptor);

export const createUyumsoftPortalConnector = (credentials: Credentials, ctx: ConnectorContext) =>
  new UyumsoftConnector(credentials, ctx, uyumsoftPortalDescriptor);
