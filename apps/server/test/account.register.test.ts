import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerAndLogin, startTestApp, type TestApp, validRegistration } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(() => t.close());

const fieldMessages = (body: { data: { errors: { field: string; message: string }[] } }) =>
  Object.fromEntries(body.data.errors.map((e) => [e.field, e.message]));

describe("POST /api/account/register", () => {
  it("creates the company, its first user and two 14-day trial licences", async () => {
    const { token, registration, account } = await registerAndLogin(t.app);
    expect(account.companyUser.email).toBe(registration.email);
    expect(account.company.company_Name).toBe(registration.company_Name);
    const licences = await call(t.app, "GET", "/api/CustomerLicense", { token });
    expect(licences.status).toBe(200);
    expect(licences.body.data.map((l: { product_type: string }) => l.product_type).sort()).toEqual([
      "ECommerceIntegration",
      "ErpIntegration",
    ]);
    for (const l of licences.body.data) {
      expect(l.days_left).toBe(14);
      expect(l.is_trial).toBe(true);
    }
  });

  it("answers every required-field message of spec section 5 for an empty form", async () => {
    const res = await call(t.app, "POST", "/api/account/register", { body: {} });
    expect(res.status).toBe(400);
    expect(res.body.successful).toBe(false);
    expect(fieldMessages(res.body)).toEqual({
      company_Name: "Şirket Adı adı zorunludur.",
      email: "E-Posta zorunludur.",
      password: "Şifre zorunludur.",
      first_Name: "Ad zorunludur.",
      last_Name: "Soyad zorunludur.",
      phone: "Telefon zorunludur.",
      erpType: "Muhasebe programı zorunludur.",
      ecommerceType: "E-ticaret yazılımı zorunludur.",
    });
  });

  it("checks the length rules: company name min 3, password min 8", async () => {
    const res = await call(t.app, "POST", "/api/account/register", {
      body: validRegistration({ company_Name: "ab", password: "kisa12" }),
    });
    expect(res.status).toBe(400);
    expect(fieldMessages(res.body)).toEqual({
      company_Name: "En az 3 karakter içermelidir.",
      password: "En az 8 karakter içermelidir.",
    });
  });

  it("refuses unknown system types and malformed phones", async () => {
    const res = await call(t.app, "POST", "/api/account/register", {
      body: validRegistration({ erpType: 3, ecommerceType: 99, phone: "5321234" }),
    });
    expect(fieldMessages(res.body)).toEqual({
      erpType: "Muhasebe programı zorunludur.",
      ecommerceType: "E-ticaret yazılımı zorunludur.",
      phone: "Geçerli bir telefon numarası giriniz.",
    });
  });

  it("answers 119 for an invalid e-mail format", async () => {
    const res = await call(t.app, "POST", "/api/account/register", {
      body: validRegistration({ email: "ali@@x" }),
    });
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(119);
    expect(res.body.message).toBe("Geçersiz eposta formatı. Lütfen e-posta adresini kontrol ediniz.");
  });

  it("answers 120 for an e-mail with Turkish characters", async () => {
    const res = await call(t.app, "POST", "/api/account/register", {
      body: validRegistration({ email: "ayşe@şirket.com" }),
    });
    expect(res.status).toBe(400);
    expect(res.body.statusCode).toBe(120);
    expect(res.body.message).toMatch(/Türkçe karakter/);
  });

  it("answers 105 when the e-mail is already registered, whatever its case", async () => {
    const first = validRegistration();
    expect((await call(t.app, "POST", "/api/account/register", { body: first })).status).toBe(200);
    const again = await call(t.app, "POST", "/api/account/register", {
      body: validRegistration({ email: first.email.toUpperCase() }),
    });
    expect(again.status).toBe(409);
    expect(again.body.statusCode).toBe(105);
  });

  it("lets only one of two simultaneous registrations of one address through", async () => {
    const body = validRegistration();
    const results = await Promise.all([
      call(t.app, "POST", "/api/account/register", { body }),
      call(t.app, "POST", "/api/account/register", { body: { ...body, email: body.email.toUpperCase() } }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
  });
});

describe("how each listed system connects", () => {
  it("says on the public config how each listed system connects today", async () => {
    const res = await call(t.app, "GET", "/api/config");
    expect(res.body.data.systems.erp["9"]).toBe("agent"); // Mikro: on-premise, connector ready
    expect(res.body.data.systems.erp["12"]).toBe("mapping"); // Gizsoft: no API, a configured SQL / file mapping
    expect(res.body.data.systems.erp["2"]).toBe("agent"); // Netsis: on-premise NetOpenX REST, connector ready
    expect(res.body.data.systems.erp["7"]).toBe("agent"); // Microsoft Dynamics AX (AIF): on-premise, through the agent
    expect(res.body.data.systems.ecommerce["1"]).toBe("available"); // IKAS
    expect(res.body.data.systems.ecommerce["7"]).toBe("files"); // JetStok: no API, its own export/import files
    // Nothing of the lists waits for a connector any more.
    const all = [
      ...Object.values(res.body.data.systems.erp),
      ...Object.values(res.body.data.systems.ecommerce),
    ];
    expect(all).not.toContain("soon");
  });

  // Every listed system is connectable now, so no registration opens a "bağlantı talebi" ticket (the case
  // of a system not ready went with JetStok's connector).
  it("opens no connection ticket, JetStok included", async () => {
    const jetstok = await registerAndLogin(t.app, { erpType: 9, ecommerceType: 7 });
    const list = await call(t.app, "GET", "/api/Ticket/my-company/1/20", { token: jetstok.token });
    expect(list.body.data.dataList).toEqual([]);
    const ready = await registerAndLogin(t.app, { erpType: 9, ecommerceType: 1 });
    const none = await call(t.app, "GET", "/api/Ticket/my-company/1/20", { token: ready.token });
    expect(none.body.data.dataList).toEqual([]);
  });
});
