import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { combo, field, fillRegistration, newUser, registerByApi, signIn } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();

/** The error text under one field (Mantine links it with aria-describedby). */
async function errorOf(page: Page, name: string): Promise<string | null> {
  const input = page
    .getByRole("textbox", { name, exact: true })
    .or(page.getByRole("combobox", { name, exact: true }));
  const described = await input.getAttribute("aria-describedby");
  const id = described?.split(/\s+/).find((part) => part.endsWith("-error"));
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}

describe("registration validation (spec section 5)", () => {
  it("shows every required-field message once the fields are left empty; submit disabled throughout", async () => {
    const page = await browser.newPage();
    await page.goto("/account/registration");
    // Spec section 5: submit disabled while the form is invalid, before any try.
    await page.getByRole("button", { name: "Kayıt Ol" }).waitFor();
    expect(await page.getByRole("button", { name: "Kayıt Ol" }).isDisabled()).toBe(true);
    for (const name of ["Şirket Adı", "E-Posta", "Şifre", "Ad", "Soyad", "Telefon"]) {
      await field(page, name).focus();
      await field(page, name).blur();
    }
    for (const name of ["Muhasebe Programı", "E-Ticaret Yazılımı"]) {
      await combo(page, name).focus();
      await combo(page, name).blur();
    }
    await expect.poll(() => errorOf(page, "Şirket Adı")).toBe("Şirket Adı adı zorunludur.");
    expect(await errorOf(page, "E-Posta")).toBe("E-Posta zorunludur.");
    expect(await errorOf(page, "Şifre")).toBe("Şifre zorunludur.");
    expect(await errorOf(page, "Ad")).toBe("Ad zorunludur.");
    expect(await errorOf(page, "Soyad")).toBe("Soyad zorunludur.");
    expect(await errorOf(page, "Telefon")).toBe("Telefon zorunludur.");
    expect(await errorOf(page, "Muhasebe Programı")).toBe("Muhasebe programı zorunludur.");
    expect(await errorOf(page, "E-Ticaret Yazılımı")).toBe("E-ticaret yazılımı zorunludur.");
    // Submit stays disabled while the form is invalid.
    expect(await page.getByRole("button", { name: "Kayıt Ol" }).isDisabled()).toBe(true);
  });

  it("shows the length and format messages", async () => {
    const page = await browser.newPage();
    await page.goto("/account/registration");
    await field(page, "Şirket Adı").fill("AB");
    await field(page, "Şirket Adı").blur();
    await expect.poll(() => errorOf(page, "Şirket Adı")).toBe("En az 3 karakter içermelidir.");

    await field(page, "E-Posta").fill("ab");
    await field(page, "E-Posta").blur();
    await expect.poll(() => errorOf(page, "E-Posta")).toBe("En az 3 karakter içermelidir.");
    await field(page, "E-Posta").fill("gecersiz-adres");
    await expect.poll(() => errorOf(page, "E-Posta")).toBe("Geçerli bir e-posta adresi giriniz.");

    await field(page, "Şifre").fill("kisa");
    await field(page, "Şifre").blur();
    await expect.poll(() => errorOf(page, "Şifre")).toBe("En az 8 karakter içermelidir.");

    // Fixing a field clears its message.
    await field(page, "Şirket Adı").fill("ABC Ticaret");
    await expect.poll(() => errorOf(page, "Şirket Adı")).toBeNull();
  });

  it("lists the accounting and e-commerce options in the spec's order", async () => {
    const page = await browser.newPage();
    await page.goto("/account/registration");
    await combo(page, "Muhasebe Programı").click();
    await page.getByRole("option", { name: "Nebim", exact: true }).waitFor();
    const erp = await page.getByRole("option").allTextContents();
    expect(erp).toEqual([
      "Nebim",
      "Netsis",
      "Logo",
      "Logo Tiger",
      "Dia",
      "Wolvox",
      "WolvoxSDK",
      "Microsoft Dynamics AX",
      "Microsoft Dynamics AX Rest API",
      "Uyumsoft",
      "Mikro",
      "Gizsoft",
      "Zirve",
      "Nebim Winner",
      "Eta",
      "Entegra",
      "UyumsoftPortal",
      "LucaPortal",
      "Shopier",
      "Logo Is Basi",
      "LucaNet",
      "LucaKoza",
      "TrendyolEfaturam",
    ]);
    await page.getByRole("option", { name: "Logo", exact: true }).click();
    expect(await combo(page, "Muhasebe Programı").inputValue()).toBe("Logo");
    await combo(page, "E-Ticaret Yazılımı").click();
    await page.getByRole("option", { name: "IKAS", exact: true }).waitFor();
    expect(await page.getByRole("option").allTextContents()).toEqual([
      "IKAS",
      "Ideasoft",
      "Sentos",
      "Tsoft",
      "Shopify",
      "Sopyo",
      "JetStok",
    ]);
  });

  it("shows the server's message when the e-mail is already registered", async () => {
    const page = await browser.newPage();
    const email = `tekrar.${Date.now()}@example.com`;
    const body = {
      company_Name: "Tekrar Ticaret",
      email,
      password: "Guclu.Sifre1",
      first_Name: "Ali",
      last_Name: "Demir",
      phone: "05321234567",
      erpType: 1,
      ecommerceType: 1,
    };
    const first = await page.request.post("/api/account/register", { data: body });
    expect(first.status()).toBe(200);
    await page.goto("/account/registration");
    await fillRegistration(page, body, "Nebim", "IKAS");
    await page.getByRole("button", { name: "Kayıt Ol" }).click();
    await expect
      .poll(() => errorOf(page, "E-Posta"))
      .toBe("Bu e-posta adresiyle kayıtlı bir kullanıcı zaten var.");
    expect(new URL(page.url()).pathname).toBe("/account/registration");
  });
});

describe("how each listed system connects (issue 12 item 8; issue 37 item 7)", () => {
  it("says under the list how the picked system connects; JetStok connects through its files, no ticket", async () => {
    const page = await browser.newPage();
    await page.goto("/account/registration");
    await combo(page, "Muhasebe Programı").click();
    await page.getByRole("option", { name: "Mikro", exact: true }).click();
    await page.getByTestId("availability-agent").waitFor();
    await combo(page, "Muhasebe Programı").click();
    await page.getByRole("option", { name: "Gizsoft", exact: true }).click();
    await page.getByTestId("availability-mapping").waitFor();
    await combo(page, "Muhasebe Programı").click();
    await page.getByRole("option", { name: "Netsis", exact: true }).click();
    await page.getByTestId("availability-agent").waitFor();
    // Every system of both lists has a connector now; JetStok, with no API, through its own files.
    await combo(page, "E-Ticaret Yazılımı").click();
    await page.getByRole("option", { name: "JetStok", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("availability-files").textContent())
      .toContain("Excel dosyalarıyla bağlanır");
    expect(await page.getByText("(Yakında)").count()).toBe(0);

    const user = newUser({ erpType: 2, ecommerceType: 7 });
    await registerByApi(user);
    await signIn(page, user.email, user.password);
    await page.goto("/settings/api-keys");
    await page.getByTestId("file-shop-note").waitFor();
    expect(await page.getByTestId("file-shop-note").textContent()).toContain("JetStok dosya ile bağlanır");
    expect(await page.getByTestId("not-ready-ecommerce").count()).toBe(0);
    expect(browser.pageErrors).toEqual([]);
  });
});
