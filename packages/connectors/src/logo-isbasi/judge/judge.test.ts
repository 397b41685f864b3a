import { describe, expect, it } from "vitest";
import type { HttpResponse } from "../../sdk/http";
import type { RecordedRequest } from "../../testing/recorder";
import { classifyIsbasiResponse } from "../api";
import { judgeIsbasiRequest } from "./requests";
import { ISBASI_ANSWERS, ISBASI_ENDPOINTS } from "./shapes";

const authed = { apikey: "k", authorization: "Bearer t", tenantid: "x" };
const req = (
  method: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = authed,
): RecordedRequest => ({
  at: 0,
  method,
  path: `/api/v1.0/${path}`,
  query: {},
  headers,
  body,
});
const list = { filters: [], sorting: { id: "Asc" }, paging: { currentPage: 1, pageSize: 100 }, count: true };

describe("Logo İşbaşı judge", () => {
  it("names a source for every endpoint and answer", () => {
    for (const e of ISBASI_ENDPOINTS) expect(e.source.ref).toMatch(/70569358786|isbasi\.go/);
    for (const a of ISBASI_ANSWERS) expect(a.source.ref).not.toBe("");
  });

  it("accepts the documented shapes and rejects the rest", () => {
    expect(judgeIsbasiRequest(req("POST", "products/products", list))?.problems).toEqual([]);
    const bad = [
      req("POST", "products/products", list, { apikey: "k" }),
      req("POST", "products/products", { ...list, paging: { currentPage: 0, pageSize: 100 } }),
      req("POST", "products/products", { ...list, paging: { currentPage: 1, pageSize: 500 } }),
      req("POST", "products/products", {
        ...list,
        filters: [{ columnName: "x", operator: ">=", value: "1" }],
      }),
      req("PUT", "firms", { id: 5, code: "A", name: "B" }),
      req("POST", "invoices/integrationInvoices", {
        invoiceId: 0,
        customer: { address: "a", tcknVkn: "1", city: "c", district: "d" },
        invoiceDate: "2026-01-01",
        currency: "TRY",
        salesInvoiceDetails: [],
      }),
      req("POST", "user/integrationLogin", { username: "u" }, { apikey: "k" }),
    ];
    for (const r of bad)
      expect(judgeIsbasiRequest(r)?.problems.length, JSON.stringify(r.body)).toBeGreaterThan(0);
    expect(judgeIsbasiRequest(req("POST", "orders/orders", list))).toBeUndefined();
  });

  it("classifies the answers the notes show", () => {
    const res = (status: number, json: unknown): HttpResponse => ({
      status,
      headers: new Headers(),
      text: JSON.stringify(json),
      json,
    });
    const reasons = ISBASI_ANSWERS.map((a) => [
      a.id,
      classifyIsbasiResponse(res(a.status, a.answer), a.operation)?.reason,
    ]);
    expect(reasons).toEqual([
      ["login", undefined],
      ["error-400", "validation"],
      ["not-found-599", "not_found"],
      ["invoice-created", undefined],
    ]);
  });
});
