/**
 * Ideasoft shop connector: Admin REST API with a per-store OAuth2 authorization-code token. One request
 * helper (`client.ts`) owns auth, paging and errors; each resource has its own module.
 */

import { ComposedShopConnector } from "../sdk/composed-shop";
import type { ConnectionInfo } from "../sdk/connector";
import { ConnectorError } from "../sdk/errors";
import type { Option, PriceGroup, StockLocation } from "../sdk/model";
import { factoryOf } from "../sdk/skeleton";
import { IdeasoftCatalog } from "./catalog";
import { IdeasoftClient } from "./client";
import { IDEASOFT_DEFAULT_PRICE_LIST, ideasoftDescriptor } from "./descriptor";
import { IDEASOFT_ORDER_STATUSES, IdeasoftOrders } from "./orders";
import { IdeasoftStockPrices } from "./stock-prices";
import type { IdeaCurrency } from "./types";

/** Ideasoft keeps one stock amount per product: one location. */
export const IDEASOFT_STOCK_LOCATION = "default";

export class IdeasoftConnector extends ComposedShopConnector {
  readonly descriptor = ideasoftDescriptor;
  readonly client = new IdeasoftClient(this.credentials, this.ctx);
  protected readonly products = new IdeasoftCatalog(this.client);
  protected readonly stockPrices = new IdeasoftStockPrices(this.client, this.products);
  protected readonly orders = new IdeasoftOrders(this.client);

  /** The store's first panel user: who installed our app (install flow). */
  async storeOwner(): Promise<{ email: string; firstName: string; lastName: string } | undefined> {
    const [u] = await this.client.page<{ email: string; firstname?: string; surname?: string }>(
      "listUsers",
      "/users",
      { sort: "id" },
      1,
      1,
    );
    return u ? { email: u.email, firstName: u.firstname ?? "", lastName: u.surname ?? "" } : undefined;
  }

  /** Apps installed in the store (the install flow finds the purchased package here). */
  async installedApplications(): Promise<Array<{ applicationId?: number; applicationName?: string }>> {
    return this.client.page("listInstalledApplications", "/app_store/installed_applications", {}, 1, 100);
  }

  async testConnection(): Promise<ConnectionInfo> {
    const currencies = await this.client.page<IdeaCurrency>("listCurrencies", "/currencies", {}, 1, 100);
    const primary = currencies.find((c) => c.isPrimary === 1);
    const storeName = this.client.creds.storeDomain ?? "";
    return {
      ok: true,
      system: "ideasoft",
      storeName,
      description: `Ideasoft mağazası: ${storeName}${primary?.abbr ? ` (ana para birimi ${primary.abbr})` : ""}`,
    };
  }

  /** The file has no invoice upload for orders: said, not pretended. */
  override async attachInvoice(orderId: string): Promise<void> {
    throw new ConnectorError("ideasoft: the Admin API has no invoice attachment for orders", {
      reason: "unsupported",
      system: "ideasoft",
      operation: "attachInvoice",
      itemKeys: [orderId],
      merchantMessage: "Ideasoft siparişe fatura eklemeyi API üzerinden desteklemiyor.",
    });
  }

  override async listOrderStatuses(): Promise<Option[]> {
    return IDEASOFT_ORDER_STATUSES;
  }

  async listPaymentTypes(): Promise<Option[]> {
    const rows = await this.client.all<{ id: number; name?: string }>("listPaymentTypes", "/payment_types");
    return rows.map((r) => ({ id: String(r.id), name: r.name ?? String(r.id) }));
  }

  async listPriceLists(): Promise<PriceGroup[]> {
    return [
      { id: IDEASOFT_DEFAULT_PRICE_LIST, name: "Satış fiyatı (Fiyat 1)", isDefault: true, vatIncluded: true },
      ...[2, 3, 4, 5, 6].map((n) => ({ id: String(n), name: `Fiyat ${n}` })),
    ];
  }

  async listSalesChannels(): Promise<Option[]> {
    return [{ id: "web", name: "Ideasoft web mağaza" }];
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return [{ id: IDEASOFT_STOCK_LOCATION, name: "Mağaza stoğu" }];
  }
}

export const createIdeasoftConnector = factoryOf(IdeasoftConnector);
