import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { combo, signInWithSandboxes, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const eventually = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout });

/**
 * Opens the product integration screen on the channel and starts a mapping of the ERP's "Giyim > Tişört"
 * (picked from the ERP's own list) onto the marketplace's category of that name; the mapping section.
 */
async function mapTeeShirts(page: Page, channel: string) {
  await page.goto("/integration/product");
  await waitForShell(page);
  await page.getByTestId("channel-select").click();
  await page.getByRole("option", { name: channel, exact: true }).click();
  const section = page.getByTestId("category-mapping");
  await eventually(() => section.count()).toBe(1);
  const erp = combo(page, "ERP kategorisi");
  await eventually(() => erp.isEnabled()).toBe(true);
  await erp.click();
  await erp.fill("Tişört");
  await page.getByRole("option", { name: "Giyim > Tişört", exact: true }).click();
  const category = combo(page, "Pazaryeri kategorisi");
  await category.click();
  await category.fill("Tişört");
  await page.getByRole("option", { name: "Giyim > Tişört", exact: true }).click();
  return section;
}

/** Connects the marketplace's sandbox as a channel, as the connections screen's button does. */
function connectSandboxChannel(page: Page, channel: string) {
  return page.evaluate(async (system) => {
    // The session token lives in the "authKey" cookie (spec section 4).
    const token = /(?:^|;\s*)authKey=([^;]*)/.exec(document.cookie)?.[1];
    const res = await fetch("/api/sandbox/connect", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${decodeURIComponent(token ?? "")}`,
      },
      body: JSON.stringify({ channels: [system] }),
      credentials: "same-origin",
    });
    return res.status;
  }, channel);
}

/**
 * Issue 37, product listing: a new company connects the sandboxes and the Trendyol sandbox channel,
 * picks an ERP category from the ERP's own list, maps it to a Trendyol category with a brand and the
 * required attribute from Trendyol's own lists, feeds Trendyol's variant attribute Beden from the ERP's
 * size option (values suggested by name) on the product integration screen, and starts the listing; the
 * channel's listing run ends.
 */
describe("marketplace category mapping and listing", () => {
  it("maps a category from Trendyol's lists and lists the products", async () => {
    const { page } = await signInWithSandboxes(browser, { erpType: 9, ecommerceType: 1 });
    expect(await connectSandboxChannel(page, "trendyol")).toBe(200);

    const section = await mapTeeShirts(page, "Trendyol");
    const brand = combo(page, "Marka");
    await brand.click();
    await brand.fill("Koton");
    await page.getByRole("option", { name: "Koton", exact: true }).click();
    const colour = combo(page, "Renk");
    await eventually(() => colour.count()).toBe(1);
    await colour.click();
    await page.getByRole("option", { name: "Siyah", exact: true }).click();
    // Beden is a variant attribute: fed from the ERP's size option, each size suggested by name.
    const source = combo(page, "Beden için ERP seçeneği");
    await eventually(() => source.count()).toBe(1);
    await source.click();
    await page.getByRole("option", { name: "Seçenek", exact: true }).click();
    await eventually(() => combo(page, "Beden: M").inputValue()).toBe("M");
    await section.getByRole("button", { name: "Eşlemeyi kaydet" }).click();

    const row = section.getByRole("row").filter({ hasText: "Giyim > Tişört" });
    await eventually(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Renk: Siyah");
    expect(await row.textContent()).toContain("Beden ← Seçenek (");
    expect(await row.textContent()).toContain("M → M");

    await section.getByRole("button", { name: "Ürünleri şimdi aç" }).click();
    await eventually(() => section.getByText("Ürün açma başlatıldı", { exact: false }).count()).toBe(1);
    // The channel's listing job ("Ürün Aktarımı") ends.
    const job = page.locator('[data-testid="job-card"][data-job-type="ProductIntegration"]');
    await eventually(
      async () =>
        (await job.getByText("Başarılı", { exact: true }).count()) +
        (await job.getByText("Kısmen başarılı", { exact: true }).count()),
      90_000,
    ).toBeGreaterThan(0);
  }, 240_000);

  it("types the brand where the marketplace keeps no brand list (Hepsiburada)", async () => {
    const { page } = await signInWithSandboxes(browser, { erpType: 9, ecommerceType: 1 });
    expect(await connectSandboxChannel(page, "hepsiburada")).toBe(200);
    const section = await mapTeeShirts(page, "Hepsiburada");
    // No brand list at Hepsiburada: a text field with the hint, not a list to pick from.
    const brand = section.getByRole("textbox", { name: "Marka" });
    await eventually(() => brand.count()).toBe(1);
    await eventually(() => section.getByText("marka listesi yok", { exact: false }).count()).toBe(1);
    await brand.fill("Koton");
    const colour = combo(page, "Renk");
    await eventually(() => colour.count()).toBe(1);
    await colour.click();
    await page.getByRole("option", { name: "Siyah", exact: true }).click();
    await section.getByRole("textbox", { name: "Garanti Süresi (Ay)" }).fill("24");
    await section.getByRole("button", { name: "Eşlemeyi kaydet" }).click();

    const row = section.getByRole("row").filter({ hasText: "Giyim > Tişört" });
    await eventually(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain("Koton");
    expect(await row.textContent()).toContain("Renk: Siyah");
  }, 240_000);
});
