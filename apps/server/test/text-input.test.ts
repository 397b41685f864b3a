/**
 * Names and one-line fields refuse what makes them read differently from what they are: C0/C1
 * control characters (BEL, ESC), bidi overrides and isolates, and unpaired surrogates (any text).
 */
import { lineInput, textInput } from "@ep/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerAndLogin, startTestApp, type TestApp, validRegistration } from "./harness.ts";

let t: TestApp;
let token: string;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  token = (await registerAndLogin(t.app)).token;
}, 60_000);
afterAll(async () => t?.close());

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
