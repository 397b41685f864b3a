import { copyFileSync, mkdirSync } from "node:fs";
import { type IdeasoftEmulator, startIdeasoftEmulator } from "@ep/connectors";
import { PARTNER_ENTRIES } from "@ep/contracts";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectPath, field, newUser, registerByApi, signIn } from "../support/app.ts";
import { axeViolations } from "../support/axe.ts";
import { useBrowser } from "../support/browser.ts";

/**
 * `/{product}-auth` for every shop of the partner list, signed out and signed in, as a merchant meets
 * it. The e2e server has Ideasoft's app configured (its emulator) and Shopify's not, as a fresh install
 * without SHOPIFY_CLIENT_ID would: that link must say so.
 */
const browser = useBrowser();
let ideasoft: IdeasoftEmulator;

beforeAll(async () => {
  // Ideasoft's consent page as the server's IDEASOFT_OAUTH_BASE: it approves at once.
  ideasoft = await startIdeasoftEmulator({
    port: inject("ideasoftPort"),
    clientId: "e2e-ideasoft-client",
    clientSecret: "e2e-ideasoft-secret-0123456789",
    storeDomain: `giris-${Date.now()}.myideasoft.com`,
    productCount: 5,
    rateLimit: false,
    codeTtlMs: 300_000,
  });
});

afterAll(async () => {
  await ideasoft?.close();
});
const SHOTS = new URL("../test-results/", import.meta.url).pathname;
const BRIEF_SHOTS = "/work/brief/shots-partner/";

/** A link as the shop would send it, naming a store the way that shop does. */
const linkOf = (product: string) =>
  product === "shopify"
    ? "/shopify-auth?shop=deneme-magaza.myshopify.com"
    : `/${product}-auth?domain=magaza.example.com&storeName=magaza&shop=magaza.example.com`;

async function shoot(page: Page, name: string): Promise<void> {
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
    // The dialog settles after the resize before it is taken.
    await page.getByRole("dialog").waitFor();
    await page.waitForTimeout(300);
    mkdirSync(SHOTS, { recursive: true });
    const file = `${SHOTS}partner-${name}-${width}.png`;
    await page.screenshot({ path: file });
    try {
      mkdirSync(BRIEF_SHOTS, { recursive: true });
      copyFileSync(file, `${BRIEF_SHOTS}partner-${name}-${width}.png`);
    } catch {
      // only where the brief folder exists
    }
  }
  await page.setViewportSize({ width: 1366, height: 860 });
}

describe("partner entry links", () => {
  it("signed out: every link offers sign-in or registration; signing in comes back to the install", async () => {
    const user = newUser({ ecommerceType: 4 });
    await registerByApi(user);
    const page = await browser.newPage();
    for (const entry of PARTNER_ENTRIES) {
      await page.goto(linkOf(entry.product));
      await expect
        .poll(() => page.getByTestId("partner-sign-in").textContent(), { message: entry.product })
        .toContain(`${entry.name} mağazanızı bağlayın`);
      // Not the sign-in screen's redirect any more, not a 404.
      expect(new URL(page.url()).pathname).toBe(`/${entry.product}-auth`);
    }

    await page.goto("/tsoft-auth?domain=magaza.example.com");
    await page.getByRole("link", { name: "Giriş Yap" }).click();
    await expectPath(page, "/account/login");
    await field(page, "E-Posta").fill(user.email);
    await field(page, "Şifre").fill(user.password);
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await expectPath(page, "/tsoft-auth");
    expect(new URL(page.url()).searchParams.get("domain")).toBe("magaza.example.com");
    await expect
      .poll(() => page.getByTestId("partner-confirm-question").textContent())
      .toBe(`Bu mağazayı ${user.company_Name} şirketine bağlamak istiyor musunuz?`);
    expect(browser.pageErrors).toEqual([]);
  });

  it("signed in: every link asks whether to connect the store to the current company", async () => {
    const user = newUser({ ecommerceType: 5 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    for (const entry of PARTNER_ENTRIES) {
      await page.goto(linkOf(entry.product));
      await expect
        .poll(() => page.getByTestId("partner-confirm-question").textContent(), { message: entry.product })
        .toBe(`Bu mağazayı ${user.company_Name} şirketine bağlamak istiyor musunuz?`);
      expect(await page.getByRole("dialog").textContent()).toContain(`${entry.name} mağazasını bağla`);
    }

    // Cancel leaves everything as it was.
    await page.goto(linkOf("ideasoft"));
    await page.getByRole("button", { name: "Vazgeç" }).click();
    await expectPath(page, "/dashboard");

    // Shopify's app is not configured on this server: the dialog names the settings, not "system error".
    await page.goto(linkOf("shopify"));
    await page.getByTestId("partner-confirm-question").waitFor();
    await shoot(page, "confirm");
    // The signed-in confirmation meets WCAG 2.1 AA like every other screen (the signed-out landings are
    // in the accessibility suite's public routes).
    expect(await axeViolations(page, "/shopify-auth (signed in)")).toEqual([]);
    await page.getByRole("button", { name: "Evet, bağla" }).click();
    await expect
      .poll(() => page.getByTestId("install-error-body").textContent())
      .toContain(
        "Shopify uygulama bilgileri (SHOPIFY_CLIENT_ID, SHOPIFY_CLIENT_SECRET) sunucuda tanımlı değil",
      );
    expect(await page.getByRole("dialog").textContent()).toContain(
      "Mağaza uygulaması sunucuda ayarlanmamış.",
    );
    expect(await page.getByRole("dialog").textContent()).not.toContain("Sistem hatası");
    await shoot(page, "error-not-configured");
    await page.getByRole("button", { name: "Ana sayfaya dön" }).click();
    await expectPath(page, "/dashboard");

    // JetStok has no API: confirming chooses it and opens its card, which says how its files connect it.
    await page.goto(linkOf("jetstok"));
    await page.getByRole("button", { name: "Evet, bağla" }).click();
    await expectPath(page, "/settings/api-keys");
    await page.getByTestId("file-shop-note").waitFor();

    // T-Soft has no partner consent: confirming chooses it and opens the connection form.
    await page.goto(linkOf("tsoft"));
    await page.getByRole("button", { name: "Evet, bağla" }).click();
    await expectPath(page, "/settings/api-keys");
    // The shop form opens on Tsoft, though the company registered with Shopify.
    await expect
      .poll(() =>
        page
          .getByRole("combobox", { name: "Sistem", exact: true })
          .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
      )
      .toContain("Tsoft");
    expect(browser.pageErrors).toEqual([]);
  });

  it("signed in, a consent answer this browser did not start is refused in words", async () => {
    const user = newUser({ ecommerceType: 2 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto(
      "/ideasoft-app-install?code=baskasinin-kodu&state=baskasinin-durumu&domain=magaza.myideasoft.com",
    );
    await expect
      .poll(() => page.getByTestId("install-error-body").textContent())
      .toContain("Bu kurulum bu tarayıcıda başlatılmadı");
    await shoot(page, "error-state");
  });

  it("signed in, Ideasoft: confirm, the consent page, and the store is on the company's connection", async () => {
    const user = newUser({ ecommerceType: 2 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    await page.goto(`/ideasoft-auth?domain=${ideasoft.credentials.storeDomain}`);
    await page.getByRole("button", { name: "Evet, bağla" }).click();
    await expectPath(page, "/settings/api-keys");
    await expect
      .poll(() => page.getByText("mağazanız (", { exact: false }).first().textContent())
      .toContain(`Ideasoft mağazanız (${ideasoft.credentials.storeDomain}) şirketinize bağlandı.`);
    // The saved shop connection: Ideasoft, with the store's address filled in.
    await expect
      .poll(() => page.locator("input").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)))
      .toEqual(expect.arrayContaining(["Ideasoft", ideasoft.credentials.storeDomain]));
    expect(browser.pageErrors).toEqual([]);
  });
});
