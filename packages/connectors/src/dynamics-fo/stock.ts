/**
 * D365 F&O stock per warehouse from `WarehousesOnHandV2` (on-hand by warehouse, product dimensions
 * included). The quantity is `AvailableOnHandQuantity` (physical on hand less reservations); rows of a
 * product master's variant are named by the variant number, read for the page's items.
 */

import { message } from "@ep/contracts";
import { ConnectorError } from "../sdk/errors";
import type { Page, PageQuery, RejectedRecord, StockLevel } from "../sdk/model";
import { decodeToken, encodeToken } from "../sdk/util";
import { DIMENSIONS, dimensionKey, hasDimensions, variantsOf } from "./catalog";
import { type D365Client, num, str } from "./client";
import { anyOf } from "./odata";

const FIELDS = [
  "ItemNumber",
  ...DIMENSIONS.map(([f]) => f),
  "InventoryWarehouseId",
  "AvailableOnHandQuantity",
];

export async function listD365Stock(
  api: D365Client,
  q: PageQuery & { locations?: string[] } = {},
): Promise<Page<StockLevel>> {
  const tok = decodeToken<{ next: string }>(q.pageToken, "d365");
  const page = await api.page(
    "WarehousesOnHandV2",
    {
      filter: q.locations && q.locations.length > 0 ? anyOf("InventoryWarehouseId", q.locations) : undefined,
      select: FIELDS,
      pageSize: q.pageSize,
    },
    tok?.next,
  );
  const withDims = page.rows.filter(hasDimensions);
  const variantNo = new Map<string, string>();
  if (withDims.length > 0) {
    for (const v of await variantsOf(
      api,
      withDims.map((r) => str(r.ItemNumber)),
    )) {
      variantNo.set(dimensionKey(v), str(v.ProductVariantNumber));
    }
  }
  const sums = new Map<string, StockLevel>();
  const rejected: RejectedRecord[] = [];
  for (const r of page.rows) {
    const location = str(r.InventoryWarehouseId);
    if (!location) continue;
    const sku = hasDimensions(r) ? variantNo.get(dimensionKey(r)) : str(r.ItemNumber);
    if (!sku) {
      const key = dimensionKey(r);
      rejected.push({
        key,
        error: new ConnectorError(`d365 WarehousesOnHandV2: no released variant for ${key}`, {
          reason: "unknown_item",
          system: api.http.system,
          operation: "GET WarehousesOnHandV2",
          itemKeys: [key],
          merchantMessage: message("connectors.d365VariantUnknown", { key: key.replaceAll("|", " / ") }),
        }),
      });
      continue;
    }
    const k = `${sku}\u0000${location}`;
    const cur = sums.get(k);
    const qty = num(r.AvailableOnHandQuantity);
    if (cur) cur.qty += qty;
    else sums.set(k, { sku, location, qty });
  }
  return {
    items: [...sums.values()],
    nextPageToken: page.nextLink ? encodeToken({ next: page.nextLink }) : undefined,
    rejected: rejected.length > 0 ? rejected : undefined,
  };
}
