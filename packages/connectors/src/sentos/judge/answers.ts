/**
 * The Sentos judge, part 2: answer shapes as fixtures written by us (values ours, shapes from the source's
 * types and its list/one readers). `inferred` names what the source does not pin down.
 */

import type { AnswerFixture } from "../../testing/judge-fixtures";
import { SENTOS_BRIDGE } from "./sources";

export type { AnswerFixture };

const product = {
  id: 101,
  sku: "MDL-000001",
  name: "Koton Basic Tişört Siyah",
  brand: "Koton",
  barcode: null,
  category_id: 7,
  stocks: [],
  images: [{ id: 1, url: "https://cdn.example.com.tr/mdl-000001.jpg" }],
  variants: [
    {
      id: 1001,
      sku: "STK-000001",
      barcode: "8690000000019",
      color: "Siyah",
      model: { name: "Beden", value: "M" },
      stocks: [{ warehouse: 1, stock: 12 }],
    },
    {
      id: 1002,
      sku: "STK-000002",
      barcode: "8690000000026",
      color: "Siyah",
      model: { name: "Beden", value: "L" },
      stocks: [{ warehouse: { id: 1, name: "Merkez Depo" }, stock: "4" }],
    },
  ],
};

const order = {
  id: 9001,
  order_id: "TY-123456789",
  order_code: "S-9001",
  status: 2,
  source: "trendyol",
  shop: "Trendyol Mağazam",
  order_date: "2026-11-20 10:15:00",
  total: "529.70",
  shipping_total: "29.90",
  payment_method: "Kredi Kartı",
  payment_status: "paid",
  cargo_provider: "Yurtiçi Kargo",
  cargo_number: "YK123456789",
  tracking_info: { cargo_company: "Yurtiçi Kargo", tracking_number: "YK123456789", tracking_link: null },
  created_at: "2026-11-20 10:16:02",
  customer: { id: 55, name: "Ayşe Yılmaz", phone: "05321234567", mail_address: "ayse.yilmaz@example.com.tr" },
  invoice_address: {
    name: "Ayşe Yılmaz",
    phone: "05321234567",
    address: "Merkez Mahallesi, Atatürk Caddesi No: 5",
    district: "Kadıköy",
    city: "İstanbul",
    country: "Türkiye",
    zipCode: "34710",
  },
  shipment_address: {
    name: "Ayşe Yılmaz",
    address: "Merkez Mahallesi, Atatürk Caddesi No: 5",
    district: "Kadıköy",
    city: "İstanbul",
    country: "Türkiye",
  },
  lines: [
    {
      id: 1,
      sku: "STK-000001",
      barcode: "8690000000019",
      name: "Koton Basic Tişört Siyah M",
      quantity: 2,
      list_price: "299.90",
      price: "249.90",
      discount: "0",
      amount: "499.80",
      currency: "TRY",
      vat_rate: 20,
    },
  ],
};

export const SENTOS_ANSWERS: AnswerFixture[] = [
  {
    id: "products-array",
    operation: "listProducts",
    source: SENTOS_BRIDGE,
    finding: "The product list may be a bare array (extractList).",
    answer: [product],
  },
  {
    id: "products-data",
    operation: "listProducts",
    source: SENTOS_BRIDGE,
    finding:
      "…or { data: [...] }; variants carry sku, barcode, color, model {name, value} and stocks whose warehouse is a number in the docs and an object in some answers (SentosStockEntry).",
    inferred: ["paging metadata beside data (none is read: a short page ends the list)"],
    answer: { data: [product] },
  },
  {
    id: "warehouses",
    operation: "listWarehouses",
    source: SENTOS_BRIDGE,
    finding: "Warehouses {id, name}, as a list or under data.",
    answer: {
      data: [
        { id: 1, name: "Merkez Depo" },
        { id: 2, name: "Ankara Depo" },
      ],
    },
  },
  {
    id: "orders",
    operation: "listOrders",
    source: SENTOS_BRIDGE,
    finding:
      "GET /orders rows (SentosOrder, v1.5): id, order_code, status, source/shop, order_date, total, shipping_total, payment_method, payment_status, cargo_provider, cargo_number, tracking_info {cargo_company, tracking_number, tracking_link}, customer, invoice/shipment addresses, lines with sku, quantity, price, amount, vat_rate; numbers may be strings.",
    inferred: [
      "the meaning of the numeric status codes",
      "the date-time format of order_date",
      "the words of payment_method and payment_status (free text in the source)",
    ],
    answer: { data: [order] },
  },
  {
    id: "order",
    operation: "getOrder",
    source: SENTOS_BRIDGE,
    finding: "One order: the object itself when it has an id, else under data/order (extractOne).",
    answer: { order },
  },
];

export function sentosAnswer(id: string): unknown {
  const f = SENTOS_ANSWERS.find((x) => x.id === id);
  if (!f) throw new Error(`no Sentos answer fixture ${id}`);
  return structuredClone(f.answer);
}
