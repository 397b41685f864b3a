/**
 * A vendor changing an answer's shape, played by an emulator (issue 36): the connection check must find
 * it. Each sandbox system names the key of its product (ERP) or order (shop) answer whose loss the
 * connector cannot read around; the drift removes that key from the first answer of that read.
 * (Uyumsoft, an e-invoice service, makes no catalogue read: it has nothing to drift.)
 */

import type { CheckOperation } from "../sdk/check";

export interface AnswerDrift {
  /** The key (JSON) or element / attribute name (XML) removed. */
  key: string;
  /** A key only that read's answer carries: the drift waits for an answer that has both. */
  within: string;
  /** The read whose answer it breaks. */
  operation: CheckOperation;
}

/** Per sandbox system (`SandboxSystem.system`): what drifts. */
export const CHECK_DRIFTS: Record<string, AnswerDrift> = {
  dia: { key: "stokkartkodu", within: "aciklama", operation: "products" },
  mikro: { key: "sto_kod", within: "sto_isim", operation: "products" },
  netsis: { key: "Stok_Adi", within: "StokTemelBilgi", operation: "products" },
  nebim: { key: "ItemCode", within: "ItemDescription", operation: "products" },
  "logo-isbasi": { key: "code", within: "mainUnit", operation: "products" },
  "dynamics-ax": { key: "ItemId", within: "NameAlias", operation: "products" },
  "dynamics-ax-rest": { key: "ItemNumber", within: "SearchName", operation: "products" },
  entegra: { key: "productCode", within: "productList", operation: "products" },
  "luca-koza": { key: "kartKodu", within: "skartId", operation: "products" },
  shopier: { key: "id", within: "priceData", operation: "products" },
  ikas: { key: "currencyCode", within: "orderLineItems", operation: "orders" },
  shopify: { key: "name", within: "lineItems", operation: "orders" },
  tsoft: { key: "OrderId", within: "OrderDetails", operation: "orders" },
  sentos: { key: "id", within: "shipment_address", operation: "orders" },
  sopyo: { key: "order_code", within: "order_items", operation: "orders" },
  ideasoft: { key: "transactionId", within: "orderItems", operation: "orders" },
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

/**
 * The answer without `key` (every occurrence), or undefined when it carries no such key or not `within`
 * (the key of the read the drift is for).
 */
export function driftAnswer(body: string, key: string, within?: string): string | undefined {
  const text = body.trimStart();
  if (within && !new RegExp(`["<:]${escapeRe(within)}["\\s>=]`).test(text)) return undefined;
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
