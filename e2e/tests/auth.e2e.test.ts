import { describe, expect, it } from "vitest";
import { combo, expectPath, field, newUser, registerByApi, signIn, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();

describe("sign-up, sign-in, sign-out", () => {
  it("registers through the form and lands signed in on /dashboard", async () => {
    const user = newUser({ first_Name: "Zeynep", last_Name: "Kaya" });
    const page = await browser.newPage();
    await page.goto("/account/registration");
    await field(page, "Şirket Adı").fill(user.company_Name);
    await field(page, "E-Posta").fill(user.email);
    await field(page, "Şifre").fill(user.password);
    await field(page, "Ad").fill(user.first_Name);
    await field(page, "Soyad").fill(user.last_Name);
    await field(page, "Telefon").pressSequentially("5321234567");
    expect(await field(page, "Telefon").inputValue()).toBe("0 (532) 123-4567");
    await combo(page, "Muhasebe Programı").click();
    await page.getByRole("option", { name: "Logo Tiger", exact: true }).click();
    await combo(page, "E-Ticaret Yazılımı").click();
    await page.getByRole("option", { name: "Ideasoft", exact: true }).click();
    await page.getByRole("button", { name: "Kayıt Ol" }).click();

    await expectPath(page, "/dashboard");
    await waitForShell(page);
    await expect.poll(() => page.getByTestId("welcome-title").textContent()).toContain("Zeynep Kaya");
    await page.getByTestId("user-menu").click();
    await expect.poll(() => page.getByRole("menu").textContent()).toContain(user.email);
    await page.keyboard.press("Escape");
    await page.screenshot({ path: "/tmp/ep-e2e-dashboard.png", fullPage: true });
    expect(browser.pageErrors).toEqual([]);
  });

  it("signs out from the user menu and stays signed out after a reload", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.getByTestId("user-menu").click();
    await page.getByRole("menuitem", { name: "Çıkış" }).click();
    await expectPath(page, "/account/login");
    expect(await page.evaluate(() => localStorage.getItem("ep.persist"))).toBeNull();
    expect((await page.context().cookies()).find((c) => c.name === "authKey")).toBeUndefined();
    await page.goto("/dashboard");
    await expectPath(page, "/account/login");
  });

  it("/logout signs out and goes to the sign-in screen", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto("/logout");
    await expectPath(page, "/account/login");
    await page.goto("/settings");
    await expectPath(page, "/account/login");
  });

  it("shows 'Kullanıcı adı veya şifre yanlış.' for a wrong password", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await page.goto("/account/login");
    await field(page, "E-Posta").fill(user.email);
    await field(page, "Şifre").fill("Yanlis.Sifre9");
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await expect
      .poll(() => page.getByTestId("login-error").textContent())
      .toBe("Kullanıcı adı veya şifre yanlış.");
    expect(new URL(page.url()).pathname).toBe("/account/login");
  });

  it("shows the captcha widget once the visitor starts on the form, and signs in with its payload", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    const captchas: (string | undefined)[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/api/account/login"))
        captchas.push((req.postDataJSON() as { captcha?: string }).captcha);
    });
    await page.goto("/account/login");
    // Spec section 2: the sign-in screen holds e-mail, password and a captcha widget.
    await page.getByTestId("captcha").waitFor();
    await field(page, "E-Posta").focus();
    await page.locator("altcha-widget").waitFor();
    await field(page, "E-Posta").pressSequentially(user.email);
    await field(page, "Şifre").pressSequentially(user.password);
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await expectPath(page, "/dashboard");
    await waitForShell(page);
    expect(captchas).toHaveLength(1);
    expect(captchas[0]).toBeTruthy();
    expect(browser.pageErrors).toEqual([]);
  });

  it("after three failures the server wants the captcha, and the widget supplies it", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    const captchas: (string | undefined)[] = [];
    page.on("request", (req) => {
      if (req.url().endsWith("/api/account/login"))
        captchas.push((req.postDataJSON() as { captcha?: string }).captcha);
    });
    await page.goto("/account/login");
    await field(page, "E-Posta").fill(user.email);
    for (let i = 1; i <= 3; i++) {
      await field(page, "Şifre").fill(`Yanlis.Sifre${i}`);
      await page.getByRole("button", { name: "Giriş Yap" }).click();
      await expect.poll(() => captchas.length, { timeout: 20_000 }).toBe(i);
      await expect
        .poll(() => page.getByTestId("login-error").textContent())
        .toBe("Kullanıcı adı veya şifre yanlış.");
    }
    // The server now insists on a solved challenge (spec: adaptive after 3 failures).
    const direct = await page.request.post("/api/account/login", {
      data: { email: user.email, password: user.password },
    });
    expect(direct.status()).toBe(400);
    expect(((await direct.json()) as { statusCode: number }).statusCode).toBe(130);

    await field(page, "Şifre").fill(user.password);
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await expectPath(page, "/dashboard");
    expect(captchas.at(-1)).toBeTruthy();
  });

  it("after ten failures the form solves the harder captcha, and the right password gets in (no lock)", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    const levels: string[] = [];
    page.on("response", async (res) => {
      if (!res.url().endsWith("/api/account/login")) return;
      const body = (await res.json().catch(() => null)) as { data?: { captchaLevel?: string } } | null;
      levels.push(body?.data?.captchaLevel ?? String(res.status()));
    });
    await page.goto("/account/login");
    await field(page, "E-Posta").fill(user.email);
    for (let i = 1; i <= 10; i++) {
      await field(page, "Şifre").fill(`Yanlis.Sifre${i}`);
      await page.getByRole("button", { name: "Giriş Yap" }).click();
      await expect.poll(() => levels.length, { timeout: 20_000 }).toBe(i);
    }
    expect(levels.every((l) => l === "401")).toBe(true);
    await field(page, "Şifre").fill(user.password);
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await expect.poll(() => levels.at(-1), { timeout: 20_000 }).toBe("hard");
    await expect.poll(() => page.getByTestId("login-error").textContent()).toContain("ek doğrulama");
    // The widget fetched and is solving the harder challenge; the second press signs in. Ten
    // rounds of 65,536 hashes on average, and the count is random: on a busy box a minute or more.
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await expectPath(page, "/dashboard", 150_000);
  }, 240_000);

  it("signs in with the demo account from the sign-in screen", async () => {
    const page = await browser.newPage();
    const config = (await (await page.request.get("/api/config")).json()) as { data: { demo: unknown } };
    if (!config.data.demo) return;
    await page.goto("/account/login");
    await page.getByRole("button", { name: "Demo bilgilerini doldur" }).click();
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await expectPath(page, "/dashboard");
    await waitForShell(page);
  });

  it("ends on the sign-in screen when the stored token has expired", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.evaluate(() => {
      const stored = JSON.parse(localStorage.getItem("ep.persist") ?? "{}") as Record<string, unknown>;
      localStorage.setItem(
        "ep.persist",
        JSON.stringify({ ...stored, expiration: "2000-01-01T00:00:00.000Z" }),
      );
    });
    await page.reload();
    await expectPath(page, "/account/login");
    expect((await page.context().cookies()).find((c) => c.name === "authKey")).toBeUndefined();
  });

  it("a 401 from the API clears the session and goes to sign-in", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    // Let the dashboard's own calls finish first (a new company's freshness card says it has no jobs yet).
    await page.getByTestId("freshness-card").getByTestId("freshness-empty").waitFor();
    // Revoke the session behind the browser's back: the next call answers 401.
    const token = (await page.context().cookies()).find((c) => c.name === "authKey")?.value;
    expect(token).toBeTruthy();
    await page.request.post("/api/account/logout", {
      headers: { Authorization: `Bearer ${decodeURIComponent(token!)}` },
    });
    await page.reload();
    await expectPath(page, "/account/login");
    expect(await page.evaluate(() => localStorage.getItem("ep.persist"))).toBeNull();
    await expect.poll(() => page.getByText("Oturumunuzun süresi doldu").count()).toBe(1);
  });

  it("sends unknown signed-in paths to /error/404 ('Sayfa bulunamadı')", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto("/bu-sayfa-yok");
    await expectPath(page, "/error/404");
    await expect.poll(() => page.getByRole("heading", { name: "Sayfa bulunamadı" }).count()).toBe(1);
    await page.getByRole("link", { name: "Ana Sayfaya Dön" }).click();
    await expectPath(page, "/dashboard");
  });

  it("routes signed-out visitors to /account/login, and /auth/login leads there too", async () => {
    const page = await browser.newPage();
    await page.goto("/");
    await expectPath(page, "/account/login");
    await page.goto("/account/anything");
    await expectPath(page, "/account/login");
    await page.goto("/auth/login");
    await expectPath(page, "/account/login");
    await page.screenshot({ path: "/tmp/ep-e2e-login.png" });
    await page.goto("/error/500");
    await expect.poll(() => page.getByRole("heading", { name: "Sistem Hatası" }).count()).toBe(1);
  });

  it("shows the partner install error dialog for request_type=ideasoft", async () => {
    const page = await browser.newPage();
    await page.goto("/account/login?request_type=ideasoft&error_code=user_not_found");
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.textContent()).toContain("Kullanıcı kaydı bulunamadı.");
    await dialog.getByRole("button", { name: "Kapat" }).click();
    await dialog.waitFor({ state: "detached" });
  });
});
