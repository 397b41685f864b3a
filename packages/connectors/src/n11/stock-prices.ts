/**
 * Stock and prices to n11: product tasks (`POST /ms/product/tasks/price-stock-update`, tasks.ts) of at
 * most 1,000 SKUs by stock code, stock or price or both, each SKU's outcome read back from task-details.
 * A price goes as listPrice and salePrice together, two decimals at most, listPrice never below salePrice.
 */

import type { PriceUpdate, StockUpdate } from "../sdk/connector";
import type { BatchResult } from "../sdk/errors";
import { round2 } from "../sdk/util";
import type { N11Client } from "./client";
import { N11_BATCH } from "./descriptor";
import { runN11Tasks } from "./tasks";

export class N11StockPrices {
  constructor(private readonly client: N11Client) {}

  setStock(items: StockUpdate[]): Promise<BatchResult> {
    return this.write(
      "setStock",
      items.map((u) => ({ stockCode: u.sku, quantity: Math.max(0, Math.floor(u.qty)) })),
    );
  }

  setPrices(items: PriceUpdate[]): Promise<BatchResult> {
    // Both prices in every price change ("birlikte gönderilmelidir"); no list price → the sale price.
    return this.write(
      "setPrices",
      items.map((u) => {
        const sale = round2(u.amount);
        return {
          stockCode: u.sku,
          listPrice: round2(Math.max(u.listAmount ?? sale, sale)),
          salePrice: sale,
          currencyType: "TL",
        };
      }),
    );
  }

  private write(operation: string, skus: Array<{ stockCode: string }>): Promise<BatchResult> {
    return runN11Tasks(
      this.client,
      // Absolute values: sending the same task twice leaves n11 where one send would.
      {
        path: "/ms/product/tasks/price-stock-update",
        call: "updateProductPriceAndStock",
        operation,
        idempotent: true,
      },
      skus,
      this.client.ctx.batch?.stock ?? N11_BATCH,
    );
  }
}
