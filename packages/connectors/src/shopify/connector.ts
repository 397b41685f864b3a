/**
 * Shopify shop connector: Admin GraphQL API (pinned version) with a custom app's access token. One
 * request helper (`client.ts`) owns auth, cost throttling, paging and errors; each resource has its module.
 */

import { ComposedShopConnector } from "../sdk/composed-shop";
import type { ConnectionInfo, ConnectorContext, Credentials } from "../sdk/connector";
import type { Option, PriceGroup, Product, StockLocation } from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { mapCatalogProduct, ShopifyCatalog } from "./catalog";
import { ShopifyClient } from "./client";
import { shopifyDescriptor } from "./descriptor";
import { ShopifyOrders } from "./orders";
import { ShopifyProducts } from "./products";
import { ShopifyStockPrices } from "./stock-prices";

export class ShopifyConnector extends ComposedShopConnector {
  readonly descriptor = shopifyDescriptor;
  readonly client = new ShopifyClient(this.credentials, this.ctx);
  protected readonly products = new ShopifyProducts(this.client);
  protected readonly stockPrices = new ShopifyStockPrices(this.client, this.products, this.ctx.batch);
  protected readonly orders = new ShopifyOrders(this.client);
  readonly catalog: ShopifyCatalog;
  private currency?: string;

  constructor(credentials: Credentials, ctx: ConnectorContext, opts: { bulkPollMs?: number } = {}) {
    super(credentials, ctx);
    this.catalog = new ShopifyCatalog(this.client, { pollMs: opts.bulkPollMs });
  }

  async testConnection(): Promise<ConnectionInfo> {
    const d = await this.client.gql<{
      shop: { id: string; name: string; myshopifyDomain: string; currencyCode: string };
    }>("shop", "read", "query Shop { shop { id name myshopifyDomain currencyCode } }");
    this.currency = d.shop.currencyCode;
    return {
      ok: true,
      system: "shopify",
      storeName: d.shop.name,
      description: `Shopify mağazası: ${d.shop.name} (${d.shop.myshopifyDomain})`,
      details: { shopId: d.shop.id, currency: d.shop.currencyCode, domain: d.shop.myshopifyDomain },
    };
  }

  async listPaymentTypes(): Promise<Option[]> {
    return (await this.orders.recentFacets()).gateways;
  }

  async listSalesChannels(): Promise<Option[]> {
    return (await this.orders.recentFacets()).sources;
  }

  /** Only the store's own prices are written (Markets price lists are not). */
  async listPriceLists(): Promise<PriceGroup[]> {
    if (!this.currency) await this.testConnection();
    return [
      { id: "default", name: "Mağaza fiyatı", currency: this.currency, vatIncluded: true, isDefault: true },
    ];
  }

  async listStockLocations(): Promise<StockLocation[]> {
    const nodes = await this.client.allNodes<
      { id: string; name: string },
      {
        locations: {
          nodes: Array<{ id: string; name: string }>;
          pageInfo: { hasNextPage: boolean; endCursor: string | null };
        };
      }
    >(
      "locations",
      "query StockLocations($after: String) { locations(first: 100, after: $after) { nodes { id name } pageInfo { hasNextPage endCursor } } }",
      {},
      (d) => d.locations,
    );
    return nodes.map((l) => ({ id: l.id, name: l.name }));
  }

  /** The whole catalogue in the canonical model (bulk operation above 10,000 variants). */
  async readCatalog(): Promise<{ products: Product[]; via: "paged" | "bulk" }> {
    const r = await this.catalog.readAll();
    return { products: r.products.map(mapCatalogProduct), via: r.via };
  }
}

export const createShopifyConnector = factoryOf(ShopifyConnector);
