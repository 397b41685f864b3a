/**
 * Every date that enters the API is a real calendar date: impossible ones (month 13, day 45,
 * 0000-00-00, 30 February) are a 400 in the envelope with a Turkish message, never a 500 from the
 * database.
 */
import { isRealDate } from "@ep/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  token = (await registerAndLogin(t.app)).token;
}, 60_000);
afterAll(async () => t?.close());

const IMPOSSIBLE = [
  "2026-13-45",
  "0000-00-00",
  "2026-02-30",
  "2025-02-29",
  "2026-04-31",
  "2026-01-01T24:00:00Z",
];

const ROUTES = [
  (d: string) => `/api/invoices?from=${d}`,
  (d: string) => `/api/invoices?to=${d}`,
  (d: string) => `/api/invoices/export?from=${d}`,
  (d: string) => `/api/invoices/export?from=2024-02-01&to=${d}&format=ubl`,
  (d: string) => `/api/JobHistory?startDate=${d}`,
  (d: string) => `/api/JobHistory?endDate=${d}`,
  (d: string) => `/api/SalesReport?startDate=${d}`,
  (d: string) => `/api/SalesReport/export?endDate=${d}`,
  (d: string) => `/api/SalesReport/run-statistics?startDate=${d}`,
  (d: string) => `/api/Activity/1/10?startDate=${d}`,
];

describe("dates entering the API", () => {
  it("knows the calendar", () => {
    for (const d of IMPOSSIBLE) expect(isRealDate(d), d).toBe(false);
    for (const d of ["2024-02-29", "2026-12-31", "2026-05-01T21:00:00.000Z", "2026-05-01T10:00:00+03:00"])
      expect(isRealDate(d), d).toBe(true);
  });

  it.each(IMPOSSIBLE)("refuses %s with 400 and a Turkish message on every date parameter", async (date) => {
    for (const route of ROUTES) {
      const path = route(encodeURIComponent(date));
      const res = await call(t.app, "GET", path, { token });
      expect(res.status, path).toBe(400);
      expect(res.body.successful, path).toBe(false);
      expect(JSON.stringify(res.body), path).toContain("Geçerli bir tarih giriniz.");
    }
  });

  it("still takes real dates", async () => {
    for (const route of ROUTES) {
      const path = route("2024-02-29");
      // Exports answer a file, not the envelope: only the status is read.
      const res = await t.app.inject({ url: path, headers: { authorization: `Bearer ${token}` } });
      expect(res.statusCode, path).toBeLessThan(500);
      expect(res.statusCode, path).not.toBe(400);
    }
  });
});
