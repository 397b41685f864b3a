/**
 * The Sopyo judge, part 2: answer shapes as fixtures written by us (values ours, shapes from the source).
 * The two public test files disagree on the order detail: one answers a bare object, the other wraps it
 * in `data`. Both are fixtures; the connector accepts both and logs which one it saw.
 */

import type { AnswerFixture } from "../../testing/judge-fixtures";
import { SOURCES } from "./sources";

export type { AnswerFixture };

const detail = {
  id: 38154205,
  order_code: "WEB-100234",
  order_type: "SOPYOAPI",
  order_status: 6,
  customer_info: { email: "mehmet.kaya@example.com.tr", name: "Mehmet Kaya" },
  shipping_info: {
    full_name: "Mehmet Kaya",
    gsm: "05301234567",
    city: "Ankara",
    district: "Çankaya",
    address: "Cumhuriyet Mahallesi, Gazi Bulvarı No: 12",
  },
  billing_info: { full_name: "Mehmet Kaya", gsm: "05301234567", city: "Ankara", district: "Çankaya" },
  order_items: [
    { stock_code: "STK-000004", product_name: "Karaca Çelik Tencere Seti", quantity: 1, total_price: 1899.9 },
  ],
  total_price: 1899.9,
  cargo_info: { tracking_no: "YK123456789", company: "Yurtiçi Kargo" },
};

export const SOPYO_ANSWERS: AnswerFixture[] = [
  {
    id: "login",
    operation: "login",
    source: SOURCES.client,
    finding:
      "Login answers { access_token: { token, type: 'bearer' } }; an empty token or another type is malformed.",
    answer: { access_token: { token: "eyJ0eXAiOiJKV1Qi.sopyo.token", type: "bearer" } },
  },
  {
    id: "login-refused",
    operation: "login",
    source: SOURCES.bareDetailTest,
    finding: "A refused login is HTTP 401 with a message body.",
    answer: { message: "Unauthenticated." },
  },
  {
    id: "orders-page",
    operation: "listOrders",
    source: SOURCES.client,
    finding:
      "GET /api/v2/orders?page=N answers { data: [rows], meta: { current_page, last_page } }; rows carry a positive integer id, order_code, order_type (string or null), integer order_status and cargo_info.tracking_no.",
    inferred: ["rows carry no lines or customer: the connector reads each order's detail"],
    answer: {
      data: [
        {
          id: 38154205,
          order_code: "WEB-100234",
          order_type: "SOPYOAPI",
          order_status: 6,
          cargo_info: { tracking_no: "YK123456789" },
        },
      ],
      meta: { current_page: 1, last_page: 1 },
    },
  },
  {
    id: "order-detail-bare",
    operation: "getOrder",
    source: SOURCES.bareDetailTest,
    finding:
      "GET /api/v2/orders/{id} answers the order as a bare object {id, order_code, order_type, order_status (integer), customer_info}.",
    inferred: [
      "shipping_info, billing_info, order_items, total_price: the create request's fields (code id 70163041287), assumed to come back",
    ],
    answer: detail,
  },
  {
    id: "order-detail-data",
    operation: "getOrder",
    source: SOURCES.wrappedDetailTest,
    finding:
      "The same detail under { data: {…} }; a body with both top-level fields and data is read from data.",
    answer: { data: detail },
  },
];

export function sopyoAnswer(id: string): unknown {
  const f = SOPYO_ANSWERS.find((x) => x.id === id);
  if (!f) throw new Error(`no Sopyo answer fixture ${id}`);
  return structuredClone(f.answer);
}
