import type { Executor } from "../db.ts";
import { pendingOrderQuantities } from "./pending-orders.ts";
import { allocateStock, type ChannelShare } from "./stock-pool.ts";

export interface ChannelOffersInput {
  db: Executor;
  companyId: number;
  skus: readonly string[];
  /** The ERP's available stock per SKU (absent: none), summed over the warehouses the channels sell from. */
  readErpAvailable: (skus: readonly string[]) => Promise<Map<string, number>>;
  channels: readonly ChannelShare[];
}

/**
 * One stock round: what each channel may offer of each SKU. Pending orders are read BEFORE the ERP's
 * stock. Order transfer writes an order to the ERP first and marks it confirmed after, so an order
 * moving in between is then counted twice for a moment (offers a little low), never not at all: read
 * the other way round it could vanish from both (the concurrency test shows that oversells).
 */
export async function channelOffers(input: ChannelOffersInput): Promise<Map<string, Map<string, number>>> {
  const pending = await pendingOrderQuantities(input.db, input.companyId, input.skus);
  const available = await input.readErpAvailable(input.skus);
  const out = new Map<string, Map<string, number>>();
  for (const sku of new Set(input.skus)) {
    out.set(
      sku,
      allocateStock({
        erpAvailable: available.get(sku) ?? 0,
        pendingNotInErp: pending.get(sku) ?? 0,
        channels: input.channels,
      }),
    );
  }
  return out;
}
