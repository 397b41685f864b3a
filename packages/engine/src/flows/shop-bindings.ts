import type { LedgerConflict } from "../ledger/sync-ledger.ts";
import type { FlowContext } from "./flow.ts";

export type VariantBinding = { productId: string; variantId: string };

const MISSING = "missing@";
const RECHECK_MISSING_MS = 6 * 60 * 60_000;

export const encodeBinding = (b: VariantBinding) => `${b.productId}/${b.variantId}`;
const decode = (externalId: string | null): VariantBinding | undefined => {
  if (!externalId) return undefined;
  const i = externalId.indexOf("/");
  return i > 0 ? { productId: externalId.slice(0, i), variantId: externalId.slice(i + 1) } : undefined;
};

/**
 * Shop ids of variants by SKU: from the ledger's bindings first; SKUs never seen are looked up in
 * the shop once and bound, so later runs make no lookup calls. SKUs the shop does not have are
 * answered as missing (ProductIntegration creates them; stock and price runs skip them, and look
 * them up again only after six hours).
 *
 * One shop variant is fed by one ERP code. A SKU whose shop variant is already bound to another
 * code (an ERP matching, or a code bound earlier) is not bound: it is answered in `conflicts` with
 * the code that holds the variant, and the caller files it as that record's failed task. It is
 * looked up again on the next run or retry, so fixing the matching is enough.
 */
export async function resolveVariantBindings(
  ctx: FlowContext,
  skus: string[],
): Promise<{ bound: Map<string, VariantBinding>; missing: string[]; conflicts: Map<string, string> }> {
  const bound = new Map<string, VariantBinding>();
  const conflicts = new Map<string, string>();
  const rows = await ctx.ledger.get("variant", skus);
  const unknown: string[] = [];
  const missing: string[] = [];
  const now = ctx.now().getTime();
  for (const sku of new Set(skus)) {
    const row = rows.get(sku);
    const b = decode(row?.externalId ?? null);
    if (b) bound.set(sku, b);
    else if (
      row?.hash?.startsWith(MISSING) &&
      now - Number(row.hash.slice(MISSING.length)) < RECHECK_MISSING_MS
    ) {
      missing.push(sku);
    } else unknown.push(sku);
  }
  if (unknown.length === 0) return { bound, missing, conflicts };
  const found = await ctx.shop.findProductsBySku(unknown);
  const newBindings: Array<{ sku: string; binding: VariantBinding }> = [];
  const newlyMissing: string[] = [];
  for (const sku of unknown) {
    const b = found.get(sku);
    if (b) {
      bound.set(sku, b);
      newBindings.push({ sku, binding: b });
    } else {
      newlyMissing.push(sku);
    }
  }
  for (const c of await bindVariants(ctx, newBindings)) {
    bound.delete(c.key);
    conflicts.set(c.key, c.heldBy);
  }
  // Remember what the shop lacks, so stock and price runs do not look it up again every time.
  await ctx.ledger.put(
    "variant",
    newlyMissing.map((sku) => ({ key: sku, hash: `${MISSING}${now}` })),
  );
  return { bound, missing: [...missing, ...newlyMissing], conflicts };
}

/** Binds SKUs to shop variants; answers the ones whose variant another code already holds. */
export async function bindVariants(
  ctx: FlowContext,
  bindings: Array<{ sku: string; binding: VariantBinding }>,
): Promise<LedgerConflict[]> {
  if (bindings.length === 0) return [];
  return ctx.ledger.put(
    "variant",
    bindings.map((b) => ({ key: b.sku, externalId: encodeBinding(b.binding) })),
  );
}
