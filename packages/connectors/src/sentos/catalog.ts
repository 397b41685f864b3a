/** Sentos products (read only): the SKU → id map the engine asks for, and warehouses. */

import type { StockLocation } from "../sdk/model";
import { type Row, type SentosClient, sentosList } from "./client";
import { SENTOS_PAGE_SIZE } from "./descriptor";

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v).trim());

export class SentosCatalog {
  constructor(private readonly client: SentosClient) {}

  async *pages(): AsyncGenerator<Row[]> {
    for (let page = 1; ; page++) {
      const rows = sentosList(
        await this.client.get("/products", "listProducts", {
          page: String(page),
          size: String(SENTOS_PAGE_SIZE),
          orderby_id: "ASC",
        }),
      );
      yield rows;
      if (rows.length < SENTOS_PAGE_SIZE) return;
    }
  }

  async findProductsBySku(skus: string[]): Promise<Map<string, { productId: string; variantId: string }>> {
    const wanted = new Set(skus);
    const out = new Map<string, { productId: string; variantId: string }>();
    for await (const rows of this.pages()) {
      for (const p of rows) {
        const id = str(p.id);
        if (wanted.has(str(p.sku))) out.set(str(p.sku), { productId: id, variantId: id });
        for (const v of Array.isArray(p.variants) ? (p.variants as Row[]) : []) {
          if (wanted.has(str(v.sku)))
            out.set(str(v.sku), { productId: id, variantId: str(v.id) || str(v.sku) });
        }
      }
      if (out.size === wanted.size) break;
    }
    return out;
  }

  async listWarehouses(): Promise<StockLocation[]> {
    return sentosList(await this.client.get("/warehouses", "listWarehouses"))
      .map((w) => ({ id: str(w.id), name: str(w.name) }))
      .filter((w) => w.id !== "");
  }
}
