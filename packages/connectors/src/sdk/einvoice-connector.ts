/**
 * The registration lists e-invoice services (Uyumsoft 8, UyumsoftPortal 18, Trendyol e-Faturam 24) among
 * the ERPs, so the engine builds them as ERP connectors. Their connection test is the provider's own; every
 * catalogue or order call fails as "unsupported" with the panel's words "e-fatura servisi: ürün kaynağı
 * değildir", and the e-invoice work goes through `provider` (an `EInvoiceProvider`).
 */

import { message } from "@ep/contracts";
import type {
  ConnectionInfo,
  ConnectorDescriptor,
  ErpConnector,
  ErpCustomerRef,
  ErpOrderRef,
} from "./connector";
import type { EInvoiceProvider } from "./einvoice";
import { ConnectorError } from "./errors";
import type * as M from "./model";

/** What the panel shows for a catalogue read: this system is an e-invoice service, not a product source. */
export const NOT_A_PRODUCT_SOURCE = "e-fatura servisi: ürün kaynağı değildir";

/**
 * The ERP face of a system that is not a product source: every catalogue or order call is "unsupported".
 * `testConnection` says what the system is (an e-invoice service tests its provider; LucaPortal, which has
 * no API, answers what the merchant does instead).
 */
export class NotAProductSourceConnector implements ErpConnector {
  constructor(readonly descriptor: ConnectorDescriptor) {}

  testConnection(): Promise<ConnectionInfo> {
    return Promise.resolve({
      ok: true,
      system: this.descriptor.system,
      description: this.descriptor.notice ?? this.descriptor.notes ?? this.descriptor.name,
    });
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

  listProducts(): Promise<M.Page<M.Product>> {
    return this.notASource("listProducts");
  }
  listStock(): Promise<M.Page<M.StockLevel>> {
    return this.notASource("listStock");
  }
  listPrices(): Promise<M.Page<M.Price>> {
    return this.notASource("listPrices");
  }
  listCategories(): Promise<M.Page<M.Category>> {
    return this.notASource("listCategories");
  }
  listPriceGroups(): Promise<M.PriceGroup[]> {
    return this.notASource("listPriceGroups");
  }
  listStockLocations(): Promise<M.StockLocation[]> {
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
  listInvoicesForOrder(): Promise<M.Invoice[]> {
    return this.notASource("listInvoicesForOrder");
  }
}

export class EInvoiceServiceConnector<
  P extends EInvoiceProvider = EInvoiceProvider,
> extends NotAProductSourceConnector {
  constructor(
    readonly provider: P,
    descriptor: ConnectorDescriptor,
  ) {
    super(descriptor);
  }

  override testConnection(): Promise<ConnectionInfo> {
    return this.provider.testConnection();
  }
}
