/** One line of a failed task's payload: the path of keys that leads to a plain value. */
export type PayloadField = { path: (string | number)[]; value: string | number | boolean | null };

/**
 * A payload (any JSON) as a flat list of leaf values, depth first, for a readable field list:
 * `{ customer: { firstName: "Ali" }, lines: [{ sku: "A" }] }` → customer/firstName = Ali,
 * lines/0/sku = A. Empty objects and arrays are skipped; `limit` caps the list.
 */
export function flattenPayload(payload: unknown, limit = 200): PayloadField[] {
  const out: PayloadField[] = [];
  const walk = (value: unknown, path: (string | number)[]) => {
    if (out.length >= limit) return;
    if (value === null || value === undefined) {
      if (path.length > 0) out.push({ path, value: null });
      return;
    }
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, [...path, i]);
      return;
    }
    if (typeof value === "object") {
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
      return;
    }
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      out.push({ path, value });
      return;
    }
    out.push({ path, value: String(value) });
  };
  walk(payload, []);
  return out;
}

/** How many leaf values a payload has (to say how many the list leaves out). */
export function countPayloadFields(payload: unknown): number {
  return flattenPayload(payload, Number.POSITIVE_INFINITY).length;
}

/** Payload keys that hold an amount of money (prices, totals, discounts): shown as `89,50 ₺`. */
const MONEY_KEY = /price|amount|total|discount|cost|fiyat|tutar/i;

export const isMoneyField = (field: PayloadField) => {
  const last = [...field.path].reverse().find((s) => typeof s === "string");
  return typeof field.value === "number" && typeof last === "string" && MONEY_KEY.test(last);
};
