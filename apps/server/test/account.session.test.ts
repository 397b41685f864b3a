import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
});
afterAll(() => t.close());

const login = (email: string, password: string) =>
  call(t.app, "POST", "/api/account/login", { body: { email, password } }).then(
    (r) => r.body.data.token as string,
  );

describe("sessions", () => {
  it("answers 401 without a token, with a malformed one and with a forged one", async () => {
    expect((await call(t.app, "GET", "/api/Account")).status).toBe(401);
    expect((await call(t.app, "GET", "/api/Account", { token: "nonsense" })).status).toBe(401);
    const { token } = await registerAndLogin(t.app);
    const [h, p, s] = token.split(".");
    const claims = JSON.parse(Buffer.from(p!, "base64url").toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, cid: claims.cid + 1 })).toString("base64url")}.${s}`;
    const res = await call(t.app, "GET", "/api/CustomerLicense", { token: forged });
    expect(res.status).toBe(401);
    expect(res.body.message).toBe("Oturumunuzun süresi doldu. Lütfen tekrar giriş yapınız.");
  });

  it("ends a session at logout", async () => {
    const { token } = await registerAndLogin(t.app);
    expect((await call(t.app, "GET", "/api/Account", { token })).status).toBe(200);
    expect((await call(t.app, "POST", "/api/account/logout", { token })).status).toBe(200);
    expect((await call(t.app, "GET", "/api/Account", { token })).status).toBe(401);
  });

  it("expires a session after 24 hours", async () => {
    const { token } = await registerAndLogin(t.app);
    t.clock.advance(24 * 60 * 60_000 + 1000);
    expect((await call(t.app, "GET", "/api/Account", { token })).status).toBe(401);
  });

  it("a password change keeps the current session and ends the others", async () => {
    const { token, registration } = await registerAndLogin(t.app);
    const other = await login(registration.email, registration.password);
    const wrongOld = await call(t.app, "POST", "/api/Account/update-password", {
      token,
      body: { oldPassword: "not-the-old-one", password: "Yeni.Parola2", confirmPassword: "Yeni.Parola2" },
    });
    expect(wrongOld.status).toBe(400);
    expect(wrongOld.body.message).toBe("Mevcut şifreniz hatalı.");
    const mismatch = await call(t.app, "POST", "/api/Account/update-password", {
      token,
      body: { oldPassword: registration.password, password: "Yeni.Parola2", confirmPassword: "Yeni.Parola3" },
    });
    expect(mismatch.body.data.errors).toEqual([
      { field: "confirmPassword", message: "Yeni şifre alanları eşleşmiyor." },
    ]);
    // The spec sends this call's fields in the query string.
    const q = new URLSearchParams({
      oldPassword: registration.password,
      password: "Yeni.Parola2",
      confirmPassword: "Yeni.Parola2",
    });
    const changed = await call(t.app, "POST", `/api/Account/update-password?${q}`, { token });
    expect(changed.status).toBe(200);
    expect((await call(t.app, "GET", "/api/Account", { token })).status).toBe(200);
    expect((await call(t.app, "GET", "/api/Account", { token: other })).status).toBe(401);
    expect(await login(registration.email, "Yeni.Parola2")).toMatch(/^ey/);
    const old = await call(t.app, "POST", "/api/account/login", {
      body: { email: registration.email, password: registration.password },
    });
    expect(old.status).toBe(401);
  });

  it("refuses update-password without a session before looking at the body", async () => {
    expect((await call(t.app, "POST", "/api/Account/update-password", { body: {} })).status).toBe(401);
  });
});

describe("sign-in codes (login-by-rowId)", () => {
  it("work once and only for five minutes", async () => {
    const { token, registration } = await registerAndLogin(t.app);
    const issued = await call(t.app, "POST", "/api/account/login-code", { token });
    const rowId = issued.body.data.rowId as string;
    const first = await call(t.app, "POST", "/api/account/login-by-rowId", { body: { rowId } });
    expect(first.status).toBe(200);
    expect(first.body.data.user.email).toBe(registration.email);
    const second = await call(t.app, "POST", "/api/account/login-by-rowId", { body: { rowId } });
    expect(second.status).toBe(401);
    expect(second.body.message).toBe("Giriş kodu geçersiz veya süresi dolmuş.");

    const late = (await call(t.app, "POST", "/api/account/login-code", { token: first.body.data.token })).body
      .data.rowId;
    t.clock.advance(5 * 60_000 + 1000);
    expect((await call(t.app, "POST", "/api/account/login-by-rowId", { body: { rowId: late } })).status).toBe(
      401,
    );
    expect(
      (await call(t.app, "POST", "/api/account/login-by-rowId", { body: { rowId: "made-up" } })).status,
    ).toBe(401);
  });
});

describe("profile and company", () => {
  it("updates the profile and the company with validation", async () => {
    const { token } = await registerAndLogin(t.app);
    const bad = await call(t.app, "PUT", "/api/Account", {
      token,
      body: { first_Name: "", last_Name: "Kaya", phone: "12" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.data.errors).toEqual([
      { field: "first_Name", message: "Ad zorunludur." },
      { field: "phone", message: "Geçerli bir telefon numarası giriniz." },
    ]);
    const good = await call(t.app, "PUT", "/api/Account", {
      token,
      body: { first_Name: "Zeynep", last_Name: "Kaya", phone: "05559876543" },
    });
    expect(good.body.data.companyUser).toMatchObject({
      first_Name: "Zeynep",
      last_Name: "Kaya",
      phone: "05559876543",
    });
    const company = await call(t.app, "PUT", "/api/Account/company", {
      token,
      body: {
        company_Name: "Kaya Ticaret A.Ş.",
        tax_Office: "Kadıköy",
        tax_Number: "1234567890",
        address: "Moda Cd. 1, İstanbul",
        phone: "02161234567",
      },
    });
    expect(company.status).toBe(200);
    expect(company.body.data.company).toMatchObject({
      company_Name: "Kaya Ticaret A.Ş.",
      tax_Number: "1234567890",
    });
    const badTax = await call(t.app, "PUT", "/api/Account/company", {
      token,
      body: { company_Name: "Kaya", tax_Number: "12" },
    });
    expect(badTax.body.data.errors[0].message).toBe("Vergi numarası 10 veya 11 haneli olmalıdır.");
    expect((await call(t.app, "GET", "/api/Account", { token })).body.data.companyUser.first_Name).toBe(
      "Zeynep",
    );
  });

  it("never shows or changes another company's account", async () => {
    const a = await registerAndLogin(t.app);
    const b = await registerAndLogin(t.app);
    await call(t.app, "PUT", "/api/Account/company", { token: b.token, body: { company_Name: "B Şirketi" } });
    const seenByA = await call(t.app, "GET", "/api/Account", { token: a.token });
    expect(seenByA.body.data.company.id).toBe(a.account.company.id);
    expect(seenByA.body.data.company.company_Name).toBe(a.registration.company_Name);
    const licencesA = await call(t.app, "GET", "/api/CustomerLicense", { token: a.token });
    const licencesB = await call(t.app, "GET", "/api/CustomerLicense", { token: b.token });
    const idsA = licencesA.body.data.map((l: { id: number }) => l.id);
    const idsB = licencesB.body.data.map((l: { id: number }) => l.id);
    expect(idsA.filter((id: number) => idsB.includes(id))).toEqual([]);
  });
});
