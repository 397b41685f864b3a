/**
 * IKAS shop connector: Admin GraphQL API v1 with a client-credentials token. One request helper
 * (`client.ts`) owns auth, paging and errors; each resource has its own module.
 */

import { ComposedShopConnector } from "../sdk/composed-shop";
import type { ConnectionInfo, InvoiceAttachment } from "../sdk/connector";
import type { Option, PriceGroup, StockLocation } from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { IkasClient } from "./client";
import { IKAS_DEFAULT_PRICE_LIST, ikasDescriptor } from "./descriptor";
import { IkasInvoices } from "./invoices";
import { IkasOrders } from "./orders";
import { IkasProducts } from "./products";
import { IkasStockPrices } from "./stock-prices";

export { classifyIkasResponse } from "./client";
export { IKAS_ORDER_ONLY_STATUSES, IKAS_PACKAGE_STATUSES, mapIkasOrder } from "./orders";

export class IkasConnector extends ComposedShopConnector {
  readonly descriptor = ikasDescriptor;
  private readonly client = new IkasClient(this.credentials, this.ctx);
  protected readonly products = new IkasProducts(this.client);
  protected readonly stockPrices = new IkasStockPrices(
    this.client,
    (skus) => this.products.findProductsBySku(skus),
    this.ctx.batch,
  );
  protected readonly orders = new IkasOrders(this.client);
  private readonly invoices = new IkasInvoices(this.client);

  // ---- connection, settings lists ----

  async testConnection(): Promise<ConnectionInfo> {
    const d = await this.client.gql<{
      getMerchant: { id: string; storeName: string | null; merchantName: string | null };
    }>("getMerchant", "read", "query Merchant { getMerchant { id storeName merchantName } }");
    const storeName = d.getMerchant.storeName ?? this.client.creds.storeName ?? "";
    return {
      ok: true,
      system: "ikas",
      storeName,
      description: `ikas mağazası: ${storeName}${d.getMerchant.merchantName ? ` (${d.getMerchant.merchantName})` : ""}`,
      details: { merchantId: d.getMerchant.id },
    };
  }

  async listPaymentTypes(): Promise<Option[]> {
    const d = await this.client.gql<{ listPaymentGateway: Array<{ id: string; name: string }> }>(
      "listPaymentGateway",
      "read",
      "query PaymentGateways { listPaymentGateway { id name paymentMethodType } }",
    );
    return d.listPaymentGateway.map((g) => ({ id: g.id, name: g.name }));
  }

  async listPriceLists(): Promise<PriceGroup[]> {
    const d = await this.client.gql<{
      listPriceList: Array<{ id: string; name: string; currency: string; currencyCode: string | null }>;
    }>("listPriceList", "read", "query PriceLists { listPriceList { id name currency currencyCode } }");
    return [
      {
        id: IKAS_DEFAULT_PRICE_LIST,
        name: "Varsayılan Fiyat Listesi",
        currency: "TRY",
        vatIncluded: true,
        isDefault: true,
      },
      ...d.listPriceList.map((p) => ({
        id: p.id,
        name: p.name,
        currency: p.currencyCode ?? p.currency,
        vatIncluded: true,
      })),
    ];
  }

  async listSalesChannels(): Promise<Option[]> {
    const d = await this.client.gql<{ listSalesChannel: Array<{ id: string; name: string }> }>(
      "listSalesChannel",
      "read",
      "query SalesChannels { listSalesChannel { id name type } }",
    );
    return d.listSalesChannel.map((s) => ({ id: s.id, name: s.name }));
  }

  async listStockLocations(): Promise<StockLocation[]> {
    const d = await this.client.gql<{ listStockLocation: Array<{ id: string; name: string }> }>(
      "listStockLocation",
      "read",
      "query StockLocations { listStockLocation { id name } }",
    );
    return d.listStockLocation.map((s) => ({ id: s.id, name: s.name }));
  }

  override attachInvoice(orderId: string, attachment: InvoiceAttachment): Promise<void> {
    return this.invoices.attachInvoice(orderId, attachment);
  }
}

export const createIkasConnector = factoryOf(IkasConnector);
