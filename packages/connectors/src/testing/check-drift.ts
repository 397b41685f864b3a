/**
 * A vendor changing an answer's shape, played by an emulator (issue 36): the connection check must find
 * it. Each sandbox system names the key of its product (ERP) or order (shop) answer whose loss the
 * connector cannot read around; the drift removes that key from the first answer that carries it.
 */

import type { CheckOperation } from "../sdk/check";

export interface AnswerDrift {
  /** The key (JSON) or element / attribute name (XML) removed. */
  key: string;
  /** The read whose answer it breaks (the first one that carries the key, in check order). */
  operation: CheckOperation;
}

/** Per sandbox system (`SandboxSystem.system`): what drifts. */
export const CHECK_DRIFTS: Record<string, AnswerDrift> = {
  dia: { key: "stokkartkodu", operation: "products" },
  mikro: { key: "sto_kod", operation: "products" },
  netsis: { key: "Stok_Kodu", operation: "products" },
  nebim: { key: "ItemCode", operation: "products" },
  "logo-isbasi": { key: "code", operation: "products" },
  "dynamics-ax": { key: "ItemId", operation: "products" },
  "dynamics-ax-rest": { key: "ItemNumber", operation: "products" },
  entegra: { key: "productCode", operation: "products" },
  "luca-koza": { key: "kartKodu", operation: "products" },
  uyumsoft: { key: "InvoiceNumber", operation: "products" },
  ikas: { key: "orderNumber", operation: "orders" },
  shopify: { key: "name", operation: "orders" },
  tsoft: { key: "OrderCode", operation: "orders" },
  sentos: { key: "order_code", operation: "orders" },
  sopyo: { key: "order_no", operation: "orders" },
  shopier: { key: "orderNumber", operation: "orders" },
  ideasoft: { key: "transactionId", operation: "orders" },
};

function dropKey(node: unknown, key: string): boolean {
  if (Array.isArray(node)) return node.map((n) => dropKey(n, key)).some(Boolean);
  if (node === null || typeof node !== "object") return false;
  const obj = node as Record<string, unknown>;
  let dropped = false;
  if (key in obj) {
    delete obj[key];
    dropped = true;
  }
  for (const v of Object.values(obj)) dropped = dropKey(v, key) || dropped;
  return dropped;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The answer without `key` (every occurrence), or undefined when it carries no such key. */
export function driftAnswer(body: string, key: string): string | undefined {
  const text = body.trimStart();
  if (text.startsWith("{") || text.startsWith("[")) {
    try {
      const parsed = JSON.parse(text) as unknown;
      return dropKey(parsed, key) ? JSON.stringify(parsed) : undefined;
    } catch {
      return undefined;
    }
  }
  if (text.startsWith("<")) {
    const k = escapeRe(key);
    const element = new RegExp(
      `<((?:[\\w-]+:)?${k})(\\s[^>]*)?>[\\s\\S]*?</\\1>|<(?:[\\w-]+:)?${k}(\\s[^>]*)?/>`,
      "g",
    );
    const attribute = new RegExp(`\\s${k}="[^"]*"`, "g");
    const out = text.replace(element, "").replace(attribute, "");
    return out === text ? undefined : out;
  }
  return undefined;
}
