/**
 * n11 sales-channel connector: orders in (shipment packages, cancellations and returns as package changes),
 * stock and price out in product tasks of 1,000 SKUs with their asynchronous results read back, the
 * package's approval (Picking) and the invoice link back; products opened by product-create tasks in the
 * category and with the attribute values a listing mapping names (listing.ts).
 */

import { ComposedShopConnector } from "../sdk/composed-shop";
import type { CategoryAttribute, ConnectionInfo, InvoiceAttachment } from "../sdk/connector";
import type { BatchResult } from "../sdk/errors";
import type { ListingItem, MarketplaceListing } from "../sdk/listing";
import type { Option, PriceGroup, StockLocation } from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { N11Catalog } from "./catalog";
import { N11Client } from "./client";
import { n11Descriptor } from "./descriptor";
import { saveN11InvoiceLink } from "./invoice-link";
import { N11Listing } from "./listing";
import { N11Orders } from "./orders";
import { N11StockPrices } from "./stock-prices";

export class N11Connector extends ComposedShopConnector implements MarketplaceListing {
  readonly descriptor = n11Descriptor;
  private readonly client = new N11Client(this.credentials, this.ctx);
  protected readonly products = new N11Catalog(this.client);
  protected readonly stockPrices = new N11StockPrices(this.client);
  protected readonly orders = new N11Orders(this.client, this.ctx.now ?? Date.now);
  private readonly listing = new N11Listing(this.client, (id) => this.products.categoryAttributes(id));
  readonly freeTextBrand = this.listing.freeTextBrand;

  async testConnection(): Promise<ConnectionInfo> {
    const count = await this.products.countProducts();
    return {
      ok: true,
      system: "n11",
      storeName: this.client.integrator,
      description: `n11 satıcı hesabı: ${count} ürün`,
      details: { products: count },
    };
  }

  /** The invoice's link on the package's order (SOAP SaveLinkSellerInvoice, invoice-link.ts). */
  override attachInvoice(packageId: string, attachment: InvoiceAttachment): Promise<void> {
    return saveN11InvoiceLink(this.client, packageId, attachment);
  }

  listCategoryAttributes(categoryId: string): Promise<CategoryAttribute[]> {
    return this.products.listCategoryAttributes(categoryId);
  }

  listBrands(name?: string): Promise<Option[]> {
    return this.listing.listBrands(name);
  }

  /** Product listing: product-create tasks (listing.ts). */
  createListings(items: ListingItem[]): Promise<BatchResult> {
    return this.listing.createListings(items);
  }

  /** Payment is n11's: one means. */
  async listPaymentTypes(): Promise<Option[]> {
    return [{ id: "n11", name: "n11 (ödeme aracısı)" }];
  }

  /** One price per stock code (sale and list price). */
  async listPriceLists(): Promise<PriceGroup[]> {
    return [{ id: "default", name: "n11 satış fiyatı", currency: "TRY", vatIncluded: true, isDefault: true }];
  }

  async listSalesChannels(): Promise<Option[]> {
    return [{ id: "n11", name: "n11" }];
  }

  /** Stock is one sellable quantity per stock code. */
  async listStockLocations(): Promise<StockLocation[]> {
    return [{ id: "default", name: "n11 satılabilir stok" }];
  }
}

export const createN11Connector = factoryOf(N11Connector);
