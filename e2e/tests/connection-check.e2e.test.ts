import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { signInSupport, signInWithSandboxes, waitForShell } from "../support/app.ts";
import { baseUrl, useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const eventually = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout });

/** The company's API token (the vendor-change drill has no button: a vendor changes, not the merchant). */
async function tokenOf(email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": `10.${[...randomBytes(3)].join(".")}` },
    body: JSON.stringify({ email, password }),
  });
  return ((await res.json()) as { data: { token: string } }).data.token;
}

describe("the connection check", () => {
  it("finds the sandboxes compatible, a drifted answer 'uyumsuz' in Turkish, holds the first sync and groups it for support", async () => {
    const { user, page } = await signInWithSandboxes(browser, { erpType: 9, ecommerceType: 1 });

    // Saving the connections checked them: every read of both sides is "uyumlu".
    await page.goto("/settings/api-keys");
    await waitForShell(page);
    const card = page.getByTestId("connection-check");
    const rows = card.getByTestId("check-operation");
    await eventually(() => rows.count()).toBe(11);
    expect(await card.getByTestId("connection-check-erp").getByText("uyumlu", { exact: true }).count()).toBe(
      6,
    );
    expect(
      await card.getByTestId("connection-check-ecommerce").getByText("uyumlu", { exact: true }).count(),
    ).toBe(5);

    // Mikro changes the shape of its product answer; "Bağlantıyı doğrula" finds it on that read only.
    const token = await tokenOf(user.email, user.password);
    const armed = await fetch(`${baseUrl()}/api/sandbox/drift`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ connectionType: "erp" }),
    });
    expect(armed.status).toBe(200);
    await card.getByRole("button", { name: "Bağlantıyı doğrula" }).click();
    const products = card.locator('[data-testid="check-operation"][data-operation="products"]');
    await eventually(() => products.getByText("uyumsuz", { exact: true }).count()).toBe(1);
    expect(await card.getByText("uyumsuz", { exact: true }).count()).toBe(1);
    expect(await products.textContent()).toContain(
      "Mikro yanıtında «sku» alanı beklenen biçimde değil: dolu bir kod bekleniyordu, boş geldi. Çalışmayacak: Ürün Aktarımı, Ürün Güncelleme, Fiyat Güncelleme (sku alanı).",
    );

    // A job reading products that has not synced yet is held, with the reason in its run.
    await eventually(() => card.getByTestId("first-sync-held").count()).toBe(1);
    await page.goto("/integration/product");
    await waitForShell(page);
    const price = page.locator('[data-testid="job-card"][data-job-type="PriceIntegration"]');
    await eventually(() => price.getByText("Başarısız", { exact: true }).count(), 90_000).toBeGreaterThan(0);

    // Support sees the difference grouped by system, read and rule, with the shape and no values.
    const support = await browser.newPage();
    await signInSupport(support);
    await support.getByRole("link", { name: "Bağlantı Farkları" }).click();
    const group = support
      .locator('[data-testid="check-difference"][data-system="mikro"]')
      .filter({ hasText: "model.product.sku" });
    await eventually(() => group.count()).toBe(1);
    const text = (await group.first().textContent()) ?? "";
    expect(text).toContain("model.product.sku");
    expect(text).toContain("packages/connectors/src/mikro/VERIFIED.md");
    expect(text).not.toMatch(/STK-\d/);
  }, 300_000);
});
