import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newUser, registerByApi, signIn, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const eventually = <T>(read: () => Promise<T> | T, timeout = 15_000) => expect.poll(read, { timeout });

/**
 * Rows as GET /api/invoices answers them (the issuing itself runs against the Uyumsoft emulator in the
 * server suites: test/invoices/*.test.ts); here the screen's rendering, filters and texts are checked.
 */
const ROWS = [
  {
    source: "service",
    id: 11,
    number: "WEB2026000000002",
    ettn: "3f1c2a9e-5b7d-4c1e-9a2b-1c2d3e4f5a6b",
    orderNo: "SP-00002",
    buyer: "Kaya Ticaret Ltd. Şti.",
    total: 1250.5,
    currency: "TRY",
    type: "eInvoice",
    state: "rejected",
    message: "Alıcı: fiyat hatalı",
    issueDate: "2026-11-23",
    attached: true,
    cancellable: false,
  },
  {
    source: "service",
    id: 10,
    number: "WEB2026000000001",
    ettn: "7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d",
    orderNo: "SP-00001",
    buyer: "Ayşe Yılmaz",
    total: 450,
    currency: "TRY",
    type: "eArchive",
    state: "approved",
    message: null,
    issueDate: "2026-11-23",
    attached: true,
    cancellable: true,
  },
];

describe("Faturalar screen", () => {
  it("lists invoices with type and GİB status, explains rejections, filters, and keeps the job settings", async () => {
    const user = newUser({ erpType: 9, ecommerceType: 1 });
    await registerByApi(user);
    const page = await browser.newPage();
    const asked: string[] = [];
    await page.route(/\/api\/invoices(\?.*)?$/, async (route: Route) => {
      const url = new URL(route.request().url());
      asked.push(url.search);
      const state = url.searchParams.get("state");
      const rows = state ? ROWS.filter((r) => r.state === state) : ROWS;
      await route.fulfill({
        contentType: "application/json",
        body: JSON.stringify({ successful: true, statusCode: 200, message: "", data: rows }),
      });
    });
    await signIn(page, user.email, user.password);
    await page.goto("/integration/order/invoices");
    await waitForShell(page);

    await eventually(() => page.getByTestId("invoice-row").count()).toBe(2);
    const rejected = page.getByTestId("invoice-row").first();
    expect(await rejected.textContent()).toContain("WEB2026000000002");
    expect(await rejected.textContent()).toContain("e-Fatura");
    expect(await rejected.getByTestId("invoice-status").textContent()).toBe("Reddedildi");
    expect(await rejected.getByTestId("invoice-why").textContent()).toContain(
      "Alıcı faturayı reddetti. Siparişi kontrol edin",
    );
    expect(await rejected.getByRole("button", { name: "İptal Et" }).count()).toBe(0);
    const archive = page.getByTestId("invoice-row").nth(1);
    expect(await archive.textContent()).toContain("e-Arşiv");
    expect(await archive.getByTestId("invoice-status").textContent()).toBe("Onaylandı");
    expect(await archive.getByRole("button", { name: "İptal Et" }).count()).toBe(1);

    // Status filter goes to the server.
    await page.getByTestId("invoice-state").click();
    await page.getByRole("option", { name: "Reddedildi" }).click();
    await eventually(() => page.getByTestId("invoice-row").count()).toBe(1);
    expect(asked.some((q) => q.includes("state=rejected"))).toBe(true);

    // Settings are real: saved on the server and shown again after a reload.
    const series = page.getByTestId("invoice-series");
    await eventually(() => series.inputValue()).toBe("WEB");
    await series.fill("ab");
    await eventually(() => page.getByText("Seri 3 harf veya rakam olmalı", { exact: false }).count()).toBe(1);
    await series.fill("ABC");
    await page.getByTestId("invoice-settings-save").click();
    await eventually(() => page.getByText("Kaydedildi.", { exact: true }).count()).toBe(1);
    await page.reload();
    await waitForShell(page);
    await eventually(() => page.getByTestId("invoice-series").inputValue()).toBe("ABC");

    // Without an e-invoice service the run says what to do, in Turkish, naming the real place.
    await page.getByRole("button", { name: "Şimdi Faturala" }).click();
    await eventually(() =>
      page.getByText('API Bağlantıları sayfasındaki "E-Fatura Servisi" bölümünden', { exact: false }).count(),
    ).toBe(1);

    // Fits a 390 px phone: the table scrolls inside its card, the filters and settings wrap.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await waitForShell(page);
    await eventually(() => page.getByTestId("invoice-row").count()).toBe(2);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  }, 120_000);
});
