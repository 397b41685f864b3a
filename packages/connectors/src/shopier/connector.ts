/**
 * Shopier connected as the "ERP" side: the source of the catalogue (products, variants, stock, price) and the
 * place where Shopier's own orders are recorded. Its API (as `@bbangg/shopier` covers it) has no way to
 * create an order or a customer and issues no invoices, so those operations fail as "unsupported" with a
 * Turkish reason; nothing is sent.
 */

import { ComposedErpConnector, type ConnectionInfo, unsupportedOrderWrites } from "../sdk/connector";
import { factoryOf } from "../sdk/skeleton";
import { ShopierCatalog } from "./catalog";
import { ShopierClient, verifyShopierWebhook } from "./client";
import { shopierDescriptor } from "./descriptor";

export class ShopierConnector extends ComposedErpConnector {
  readonly descriptor = shopierDescriptor;
  private readonly api = new ShopierClient(this.credentials, this.ctx);
  protected readonly reading = new ShopierCatalog(
    this.api,
    this.ctx.batch?.page ?? this.descriptor.batch.page ?? 50,
  );

  /** No order, customer or invoice calls: shopier is only the catalogue source. */
  protected readonly writing = unsupportedOrderWrites("shopier", "connectors.shopierOrderWriteUnsupported");

  /** A product page proves the token (the shop owner endpoint may be outside a read-only token's scope). */
  async testConnection(): Promise<ConnectionInfo> {
    await this.api.page("/products", 1, 1);
    return { ok: true, system: "shopier", description: "Shopier: mağaza ürünleri okunabiliyor" };
  }

  /** The webhook signature check for notifications from this shop (see `verifyShopierWebhook`). */
  verifyWebhook(rawBody: string, signature: string | undefined): boolean {
    return verifyShopierWebhook(rawBody, signature, this.api.cfg.webhookToken ?? "");
  }
}

export const createShopierConnector = factoryOf(ShopierConnector);
