import { describe, expect, it } from "vitest";
import { expectPath, field, newUser, registerByApi, signIn, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();

describe("the signed-in shell and account settings", () => {
  it("keeps a profile change after a reload", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.getByTestId("user-menu").click();
    await page.getByRole("menuitem", { name: "Profilim" }).click();
    await expectPath(page, "/settings/account/details");

    await field(page, "Ad").fill("Mehmet Can");
    await field(page, "Soyad").fill("Öztürk");
    await field(page, "Telefon").fill("05559876543");
    await page.getByRole("button", { name: "Değişiklikleri Kaydet" }).click();
    await expect.poll(() => page.getByText("Bilgileriniz güncellendi.").count()).toBeGreaterThan(0);

    await page.reload();
    await waitForShell(page);
    await expect.poll(() => field(page, "Ad").inputValue()).toBe("Mehmet Can");
    expect(await field(page, "Soyad").inputValue()).toBe("Öztürk");
    expect(await field(page, "Telefon").inputValue()).toBe("0 (555) 987-6543");
    // The header's user menu follows the change.
    expect(await page.getByTestId("user-menu").textContent()).toContain("Mehmet Can Öztürk");
  });

  it("changes the password and signs in with the new one", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto("/settings/account/details");
    await waitForShell(page);
    await field(page, "Mevcut Şifre").fill(user.password);
    await field(page, "Yeni Şifre").fill("Baska.Sifre8");
    await field(page, "Yeni Şifre (Tekrar)").fill("Baska.Sifre8");
    await page.getByRole("button", { name: "Şifreyi Güncelle" }).click();
    await expect.poll(() => page.getByText("Şifreniz güncellendi.").count()).toBeGreaterThan(0);
    await page.goto("/logout");
    await expectPath(page, "/account/login");
    await signIn(page, user.email, "Baska.Sifre8");
  });

  it("updates the company details", async () => {
    const user = newUser({ erpType: 4 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto("/settings/company");
    await waitForShell(page);
    await expect.poll(() => field(page, "Şirket Adı").inputValue()).toBe(user.company_Name);
    expect(await page.getByText("Logo", { exact: true }).count()).toBe(1);
    await field(page, "Vergi Dairesi").fill("Kadıköy");
    await field(page, "Vergi Numarası").fill("1234567890");
    await field(page, "Adres").fill("Caferağa Mah. Moda Cad. No:1 Kadıköy/İstanbul");
    await field(page, "Telefon").fill("02163334455");
    await page.getByRole("button", { name: "Değişiklikleri Kaydet" }).click();
    await expect.poll(() => page.getByText("Şirket bilgileriniz güncellendi.").count()).toBeGreaterThan(0);
    await page.reload();
    await waitForShell(page);
    await expect.poll(() => field(page, "Vergi Dairesi").inputValue()).toBe("Kadıköy");
    expect(await field(page, "Telefon").inputValue()).toBe("0 (216) 333-4455");
  });

  it("lists the licences with DD-MM-YYYY expiry dates", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto("/settings/licence");
    await waitForShell(page);
    const table = page.getByTestId("licence-table");
    await table.waitFor();
    const rows = table.locator("tbody tr");
    expect(await rows.count()).toBeGreaterThan(0);
    const expiry = await rows.first().locator("td").nth(3).textContent();
    expect(expiry).toMatch(/^\d{2}-\d{2}-\d{4}$/);
  });

  it("has a settings overview and a side menu whose links all lead somewhere", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    const nav = page.getByRole("navigation", { name: "Ana menü" });
    const links = await nav.getByRole("link").evaluateAll((els) => els.map((e) => e.getAttribute("href")));
    expect(links).toEqual([
      "/dashboard",
      "/integration/product",
      "/integration/order",
      "/reports",
      "/settings",
      "/tickets",
    ]);
    // Every menu entry opens a real screen, never the 404 page.
    for (const href of links) {
      await nav.locator(`a[href="${href}"]`).click();
      await page.waitForURL((url) => url.pathname.startsWith(href ?? ""), { waitUntil: "commit" });
      await page.getByRole("main").waitFor();
      expect(await page.getByText("Sayfa bulunamadı").count()).toBe(0);
    }
    await nav.getByRole("link", { name: "Ayarlar" }).click();
    await expectPath(page, "/settings");
    for (const [name, path] of [
      ["Profilim", "/settings/account/details"],
      ["Şirket Bilgileri", "/settings/company"],
      ["Lisanslarım", "/settings/licence"],
    ] as const) {
      // A settings card is a link named by its title and the line under it (no aria-label hides what it shows).
      await page
        .getByRole("main")
        .getByRole("link", { name: new RegExp(`^${name}`) })
        .click();
      await expectPath(page, path);
      await page.goBack();
      await expectPath(page, "/settings");
    }
  });

  it("offers Türkçe as the active language and English / Deutsch as coming soon", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.getByTestId("user-menu").click();
    const menu = page.getByRole("menu");
    expect(await menu.textContent()).toContain("Pro");
    await menu.getByRole("menuitem", { name: /Uygulama Dili/ }).hover();
    const english = page.getByRole("menuitem", { name: /English/ });
    await english.waitFor();
    expect(await english.textContent()).toContain("(Yakında)");
    expect(await english.isDisabled()).toBe(true);
    expect(await page.getByRole("menuitem", { name: /Deutsch/ }).isDisabled()).toBe(true);
    expect(await page.getByRole("menuitem", { name: "Türkçe", exact: true }).isDisabled()).toBe(false);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("tr");
  });
});
