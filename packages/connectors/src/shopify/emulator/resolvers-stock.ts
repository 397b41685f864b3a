/** Stock writes of the Shopify emulator: inventorySetQuantities with its documented limits and reasons. */

import type { Resolver, ResolverDeps, UserError } from "./resolver-types";

/** Documented limit: 250 quantities per inventorySetQuantities. */
const MAX_QUANTITIES = 250;
/** Inventory reasons Shopify accepts (documented list, abridged to the common ones — inferred). */
const REASONS = new Set([
  "correction",
  "cycle_count_available",
  "damaged",
  "movement_created",
  "movement_updated",
  "movement_received",
  "movement_canceled",
  "other",
  "promotion",
  "quality_control",
  "received",
  "reservation_created",
  "reservation_deleted",
  "reservation_updated",
  "restock",
  "safety_stock",
  "shrinkage",
]);

export function inventoryMutations(deps: ResolverDeps): Record<string, Resolver> {
  const { state, stats } = deps;
  return {
    inventorySetQuantities: (a) => {
      stats.stockCalls++;
      const input = a.input as {
        name: string;
        reason: string;
        quantities: Array<{
          inventoryItemId: string;
          locationId: string;
          quantity: number;
          changeFromQuantity?: number | null;
        }>;
      };
      stats.stockItems += input.quantities.length;
      const errors: UserError[] = [];
      if (input.name !== "available" && input.name !== "on_hand")
        errors.push({
          field: ["input", "name"],
          message: "The quantity name must be either 'available' or 'on_hand'",
          code: "INVALID_NAME",
        });
      if (!REASONS.has(input.reason))
        errors.push({
          field: ["input", "reason"],
          message: "The specified reason is invalid",
          code: "INVALID_REASON",
        });
      if (input.quantities.length > MAX_QUANTITIES)
        errors.push({
          field: ["input", "quantities"],
          message: `At most ${MAX_QUANTITIES} quantities`,
          code: "INVALID_QUANTITY_TOO_HIGH",
        });
      const items = new Set([...state.variants.values()].map((v) => v.inventoryItemId));
      const seen = new Set<string>();
      input.quantities.forEach((q, i) => {
        const f = (x: string) => ["input", "quantities", String(i), x];
        // Since 2026-04 the field is mandatory although nullable: omission is refused (null skips the check).
        if (!("changeFromQuantity" in q))
          errors.push({
            field: f("changeFromQuantity"),
            message: "The changeFromQuantity argument must be specified",
            code: "COMPARE_QUANTITY_REQUIRED",
          });
        if (!items.has(q.inventoryItemId))
          errors.push({
            field: f("inventoryItemId"),
            message: "The specified inventory item could not be found",
            code: "INVALID_INVENTORY_ITEM",
          });
        if (!state.locations.some((l) => l.id === q.locationId))
          errors.push({
            field: f("locationId"),
            message: "The specified location could not be found",
            code: "INVALID_LOCATION",
          });
        if (q.quantity < -1_000_000_000 || q.quantity > 1_000_000_000)
          errors.push({
            field: f("quantity"),
            message: "The quantity is out of range",
            code: q.quantity < 0 ? "INVALID_QUANTITY_TOO_LOW" : "INVALID_QUANTITY_TOO_HIGH",
          });
        const key = `${q.inventoryItemId}|${q.locationId}`;
        if (seen.has(key))
          errors.push({
            field: f("inventoryItemId"),
            message: "The combination of inventoryItemId and locationId must be unique",
            code: "NO_DUPLICATE_INVENTORY_ITEM_ID_GROUP_ID_PAIR",
          });
        seen.add(key);
        if (
          q.changeFromQuantity != null &&
          q.changeFromQuantity !== state.available(q.inventoryItemId, q.locationId)
        ) {
          errors.push({
            field: f("changeFromQuantity"),
            message: "The specified compare quantity does not match the current quantity",
            code: "CHANGE_FROM_QUANTITY_STALE",
          });
        }
      });
      // All or nothing (inferred from the documented compare-and-swap semantics).
      if (errors.length > 0) return { inventoryAdjustmentGroup: null, userErrors: errors };
      for (const q of input.quantities)
        state.inventory.set(`${q.inventoryItemId}|${q.locationId}`, q.quantity);
      return {
        inventoryAdjustmentGroup: {
          __typename: "InventoryAdjustmentGroup",
          id: state.newId("InventoryAdjustmentGroup"),
          reason: input.reason,
          createdAt: new Date(state.now()).toISOString(),
        },
        userErrors: [],
      };
    },
  };
}
