/**
 * What enters the API is what it says it is. Dates: real calendar dates only; impossible ones (month
 * 13, day 45, 0000-00-00, 30 February) are a 400 in the envelope with a Turkish message, never a 500
 * from the database. Names and one-line fields: no C0/C1 control characters (BEL, ESC), bidi
 * overrides or isolates, and no text with an unpaired surrogate.
 */
import { isRealDate, lineInput, textInput } from "@ep/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerAndLogin, startTestApp, type TestApp, validRegistration } from "./harness.ts";

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

const HOSTILE = {
  BEL: "Ayşe\u0007",
  ESC: "Ayşe\u001b[31m",
  C1: "Ayşe\u009b",
  RLO: "Ayşe\u202Egnp.exe",
  LRI: "Ayşe\u2066x\u2069",
  loneHigh: "Ayşe\uD83D",
  loneLow: "\uDE00Ayşe",
};
const TURKISH = "Metin izin verilmeyen bir kontrol karakteri içeriyor. Lütfen metni yeniden yazınız.";

describe("unsafe characters in names and one-line fields", () => {
  it("the shared helpers decide", () => {
    for (const [name, value] of Object.entries(HOSTILE))
      expect(lineInput().safeParse(value).success, name).toBe(false);
    expect(textInput().safeParse("a\uD83D").success).toBe(false);
    expect(textInput().safeParse("satır 1\nsatır 2\ttab").success).toBe(true);
    for (const ok of ["Çağrı Öztürk", "İĞÜŞÖÇ ığüşöç", "Emoji 😀 ok", "O'Neil-Şahin"])
      expect(lineInput().safeParse(ok).success, ok).toBe(true);
  });

  it.each(Object.entries(HOSTILE))("registration refuses %s in a name, in Turkish", async (_name, value) => {
    const res = await call(t.app, "POST", "/api/account/register", {
      body: validRegistration({ first_Name: value }),
      ip: "10.77.0.1",
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain(TURKISH);
  });

  it("the company settings and the profile refuse them too", async () => {
    const company = await call(t.app, "PUT", "/api/Account/company", {
      token,
      body: { company_Name: `Firma${HOSTILE.RLO}`, tax_Office: "", tax_Number: "", address: "", phone: "" },
    });
    expect(company.status).toBe(400);
    expect(JSON.stringify(company.body)).toContain(TURKISH);
    const office = await call(t.app, "PUT", "/api/Account/company", {
      token,
      body: {
        company_Name: "Firma A.Ş.",
        tax_Office: `Kadıköy${HOSTILE.BEL}`,
        tax_Number: "",
        address: "",
        phone: "",
      },
    });
    expect(office.status).toBe(400);
  });
});
