/**
 * JetStok (shop 7): no public API (VERIFIED.md), so the connection is the files JetStok itself imports
 * and exports. Stock and price writes go into the company's stock and price file, which the merchant
 * downloads and imports in JetStok; orders are read from the orders files the merchant exports from
 * JetStok and uploads here, oldest first, the cursor being the last file read. Nothing is called over
 * the network.
 */

import { message } from "@ep/contracts";
import type { ConnectionInfo, PriceUpdate, ShopFileExchange, StockUpdate } from "../sdk/connector";
import { type BatchResult, ConnectorError } from "../sdk/errors";
import type { Order, Page, PageQuery, StockLocation } from "../sdk/model";
import { ReadOnlyShopConnector } from "../sdk/read-only-shop";
import { defineConnector, factoryOf, urlField } from "../sdk/skeleton";
import { ordersFromFiles } from "./layout";

export const JETSTOK_PANEL_URL = "https://app.jetstok.com";
/** Orders files read per page of `listOrders`. */
export const JETSTOK_FILES_PER_PAGE = 20;
/** The one stock location: JetStok's stock as its file sets it. */
export const JETSTOK_LOCATION_ID = "jetstok";

export const jetstokDescriptor = defineConnector("shop", "jetstok", {
  credentials: [
    urlField(
      "panelUrl",
      "JetStok panel adresi",
      `Bağlantı kartı dosyaları alıp vereceğiniz JetStok panelini bu adresle açar; genellikle boş bırakın (${JETSTOK_PANEL_URL}).`,
    ),
  ],
  // One file holds every row: a batch is only how many rows one merge writes.
  batch: { stock: 5_000, prices: 5_000 },
  // Nothing goes out; the budget only bounds merges of the file per second.
  budget: { requests: 100, windowMs: 1_000 },
  fileShop: true,
  // The cursor is the last orders file read: files come in order, so `since` is honoured.
  changeCursors: { orders: true },
  unsupported: {
    categoryWrite: message("connectors.jetstok.noCatalogue"),
    productWrite: message("connectors.jetstok.noCatalogue"),
    orderStatusWrite: message("connectors.jetstok.noStatus"),
    invoiceWrite: message("connectors.jetstok.noInvoice"),
  },
  notes:
    "JetStok: API yok; stok ve fiyat dosyası indirilip JetStok'a Excel ile aktarılır, JetStok'un sipariş dosyası buraya yüklenir.",
});

/**
 * Category, product, order-status and invoice writes are refused as the read-only shops refuse them;
 * JetStok's own lists are not in any file it exports, so there are none to offer.
 */
export class JetStokConnector extends ReadOnlyShopConnector {
  readonly descriptor = jetstokDescriptor;

  private get files(): ShopFileExchange {
    const files = this.ctx.shopFiles;
    if (!files)
      throw new ConnectorError("jetstok: no file exchange in this context", {
        reason: "config",
        system: "jetstok",
      });
    return files;
  }

  async testConnection(): Promise<ConnectionInfo> {
    // There is nothing to call: the file exchange is the connection.
    return {
      ok: true,
      system: "jetstok",
      description: message("connectors.jetstok.connected"),
      storeName: this.credentials.panelUrl || JETSTOK_PANEL_URL,
    };
  }

  /** JetStok matches the file's rows by stock code: every SKU is its own product and variant there. */
  async findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    return new Map(skus.map((sku) => [sku, { productId: sku, variantId: sku }]));
  }

  async listStockLocations(): Promise<StockLocation[]> {
    return [{ id: JETSTOK_LOCATION_ID, name: message("connectors.jetstok.location") }];
  }

  override async setStock(items: StockUpdate[]): Promise<BatchResult> {
    // One location: the engine sums the ERP's warehouses mapped to it before it writes.
    await this.files.putStockRows(items.map((i) => ({ sku: i.sku, qty: i.qty })));
    return { applied: items.length, failed: [], calls: 0 };
  }

  override async setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    await this.files.putStockRows(
      items.map((i) => ({ sku: i.sku, price: i.amount, listPrice: i.listAmount, currency: i.currency })),
    );
    return { applied: items.length, failed: [], calls: 0 };
  }

  /**
   * Orders of the files uploaded after the cursor (a file id), `JETSTOK_FILES_PER_PAGE` files a page;
   * the cursor becomes the last file read, so a file is read once and the next upload is the next page.
   */
  async listOrders(q: PageQuery = {}): Promise<Page<Order>> {
    const after = q.pageToken ?? q.since;
    const afterId = after === undefined ? undefined : Number(after);
    const files = await this.files.ordersFilesAfter(
      Number.isFinite(afterId) ? afterId : undefined,
      JETSTOK_FILES_PER_PAGE,
    );
    const last = files.at(-1)?.id;
    return {
      items: ordersFromFiles(files),
      nextPageToken: files.length === JETSTOK_FILES_PER_PAGE && last !== undefined ? String(last) : undefined,
      cursor: last !== undefined ? String(last) : q.since,
    };
  }
}

export const createJetStokConnector = factoryOf(JetStokConnector);
