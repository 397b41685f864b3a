import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInAsDemo } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();

/** A new page signed in as the demo company. */
async function demoPage(): Promise<Page> {
  const page = await browser.newPage();
  await signInAsDemo(page);
  return page;
}

describe("signed-in panel (demo company)", () => {
  it("shows the dashboard cards and toggles the sales chart between weekly and monthly", async () => {
    const page = await demoPage();
    const chart = page.getByTestId("sales-chart-card");
    await expect.poll(() => chart.textContent()).toContain("Satış Grafiği");
    // The title shows while the figures still load: wait for the caption too.
    await expect.poll(() => chart.textContent()).toContain("Bu haftaki toplam satış tutarı");
    await page.getByTestId("sales-chart").waitFor();
    expect(await page.getByTestId("sales-chart").getAttribute("data-points")).toBe("7");
    expect(await page.getByTestId("sales-total").textContent()).toMatch(/^\d{1,3}(\.\d{3})*,\d{2} ₺$/);

    const jobs = page.getByTestId("integration-jobs-card");
    for (const text of ["Entegrasyon Görevleri", "Görev Adı", "Son İşlem Tarihi", "Aktif/Pasif", "Durum"]) {
      expect(await jobs.textContent()).toContain(text);
    }
    // Every channel's jobs by default: the demo sells on its shop (7 jobs) and on two marketplaces
    // (stock, price, orders and invoices each, issue 37).
    expect(await page.getByTestId("integration-job-row").count()).toBe(7 + 4 * 2);
    expect(await page.getByTestId("connection-card").textContent()).toContain("API Ayarları");
    expect(
      await page.getByTestId("licence-card").getByTestId("licence-expiry").first().textContent(),
    ).toMatch(/^\d{2}-\d{2}-\d{4}$/);

    await chart.getByText("Aylık", { exact: true }).click();
    await expect.poll(() => chart.textContent()).toContain("Bu aylık toplam satış tutarı");
    const days = await page.evaluate(() => {
      const now = new Date();
      return new Date(now.getFullYear(), now.getMonth() + 1, 0).getDate();
    });
    await expect.poll(() => page.getByTestId("sales-chart").getAttribute("data-points")).toBe(String(days));

    // The activity drawer shows the sign-in this test just made.
    await page.getByTestId("activities-button").click();
    const drawer = page.getByRole("dialog", { name: "Son Aktiviteler" });
    await expect.poll(() => drawer.textContent()).toContain("Panele giriş yapıldı.");
    expect(await drawer.textContent()).toMatch(
      /tarafından \d{2}-\d{2}-\d{4} \d{2}:\d{2} tarihinde yapılan işlem\./,
    );
    expect(browser.pageErrors).toEqual([]);
  });

  it("runs a job from the product integration screen and shows its result without a reload", async () => {
    const page = await demoPage();
    await page.getByRole("link", { name: "Ürün Entegrasyonu" }).click();
    const card = page.locator('[data-testid="job-card"][data-job-type="CategoryIntegration"]');
    await card.waitFor();
    const run = card.getByTestId("run-now");
    if (await run.isEnabled()) await run.click();
    const finished = page.getByTestId("run-finished").filter({ hasText: "Kategori Aktarımı" });
    // The run queues behind the demo's scheduled runs on the one worker: on a busy box that is a minute.
    await finished.first().waitFor({ timeout: 100_000 });
    expect(await finished.first().textContent()).toMatch(
      /Kategori Aktarımı: (Başarıyla tamamlandı|Kısmen başarılı|Başarısız)/,
    );
    await page.getByRole("tab", { name: "Görev Geçmişi" }).click();
    await expect.poll(() => page.getByTestId("job-history").textContent()).toContain("Kategori Aktarımı");
  }, 180_000);

  it("marks a notification read from the 'Bildirimler' panel, the count falling by one", async () => {
    const page = await demoPage();
    // The demo's notifications depend on how its runs went; the panel is driven with a fixed list.
    const created = new Date(Date.now() - 3 * 3_600_000).toISOString();
    let unread = 2;
    const list = [
      {
        id: 901,
        is_Read: false,
        type: "Error",
        notification_Text: "Stok Güncelleme görevi başarısız oldu.",
        created_Date: created,
      },
      {
        id: 902,
        is_Read: false,
        type: "Info",
        notification_Text: "Stok Güncelleme görevi yeniden başarıyla çalıştı.",
        created_Date: created,
      },
    ];
    const envelope = (data: unknown) => ({
      successful: true,
      statusCode: 200,
      message: "İşlem başarılı.",
      data,
    });
    const marked: unknown[] = [];
    await page.route("**/api/Notification/**", async (route) => {
      const url = route.request().url();
      if (url.includes("/count")) return route.fulfill({ json: envelope(unread) });
      if (url.includes("/mark-as-read")) {
        const ids = route.request().postDataJSON() as number[];
        marked.push(...ids);
        for (const n of list) if (ids.includes(n.id)) n.is_Read = true;
        unread -= ids.length;
        return route.fulfill({ json: envelope({ updated: ids.length }) });
      }
      return route.fulfill({
        json: envelope({ dataList: list, totalCount: 2, pageNumber: 1, pageSize: 10 }),
      });
    });
    await page.reload();
    const bell = page.getByTestId("notification-bell");
    await expect.poll(() => bell.getAttribute("data-unread")).toBe("2");
    await bell.click();
    const panel = page.getByTestId("notification-panel");
    await expect.poll(() => panel.textContent()).toContain("2 yeni bildirim");
    expect(await panel.textContent()).toContain("Bildirimler");
    expect(await panel.textContent()).toContain("3 saat önce");
    expect(await panel.textContent()).toContain("Tüm Bildirimleri Göster");
    expect(await panel.getByTestId("notification-unread-dot").count()).toBe(2);
    await panel.getByText("Stok Güncelleme görevi başarısız oldu.").click();
    await expect.poll(() => panel.textContent()).toContain("1 yeni bildirim");
    expect(marked).toEqual([901]);
    expect(await panel.getByTestId("notification-unread-dot").count()).toBe(1);
    await panel.getByRole("link", { name: "Tüm Bildirimleri Göster" }).click();
    await page.waitForURL("**/notifications");
    await expect.poll(() => page.getByRole("heading", { name: "Tüm Bildirimler" }).count()).toBe(1);
  });
  it("filters failed tasks, groups them by cause and deletes the selected ones", async () => {
    const page = await demoPage();
    // Whether the demo has failed tasks depends on its runs; the list is driven with a fixed one.
    const row = (id: number, key: string, message: string) => ({
      id,
      jobId: 1,
      jobType: "StockIntegration",
      jobRunId: 7,
      entityKey: key,
      errorType: "validation",
      message,
      payload: { sku: key, qty: -1 },
      status: "Open",
      occurrences: 2,
      created_date: new Date().toISOString(),
      last_seen_date: new Date().toISOString(),
      resolved_date: null,
    });
    let rows = [
      row(1, "SKU-1", "Negatif stok"),
      row(2, "SKU-2", "Negatif stok"),
      row(3, "SKU-3", "Barkod yok"),
    ];
    const queries: string[] = [];
    const deleted: unknown[] = [];
    const envelope = (data: unknown) => ({
      successful: true,
      statusCode: 200,
      message: "İşlem başarılı.",
      data,
    });
    await page.route("**/api/JobErrorReport/**", async (route) => {
      const url = route.request().url();
      if (url.includes("/delete")) {
        const ids = (route.request().postDataJSON() as { jobErrorIdList: number[] }).jobErrorIdList;
        deleted.push(...ids);
        rows = rows.filter((r) => !ids.includes(r.id));
        return route.fulfill({ json: envelope({ deleted: ids.length }) });
      }
      queries.push(url);
      const search = new URL(url).searchParams.get("searchText") ?? "";
      const list = rows.filter((r) => r.entityKey.includes(search) || r.message.includes(search));
      return route.fulfill({
        json: envelope({ dataList: list, totalCount: list.length, pageNumber: 1, pageSize: 20 }),
      });
    });
    await page.goto("/integration/product/failed-tasks?jobType=StockIntegration");
    await page.getByTestId("failed-task-row").first().waitFor();
    const body = page.locator("main");
    for (const text of [
      "Hatalı Görevler",
      "Görev türü",
      "Arama",
      "Durum",
      "Hata türü",
      "Nedene göre grupla",
    ]) {
      expect(await body.textContent()).toContain(text);
    }
    expect(queries.at(-1)).toContain("/StockIntegration?");
    expect(queries.at(-1)).toContain("status=Open");

    await page.getByRole("textbox", { name: "Arama", exact: true }).fill("SKU-3");
    await expect.poll(() => page.getByTestId("failed-task-row").count()).toBe(1);
    expect(queries.at(-1)).toContain("searchText=SKU-3");
    await page.getByRole("button", { name: "Detay" }).click();
    // Readable fields first; the raw JSON only behind 'Teknik ayrıntı'.
    await expect.poll(() => page.getByTestId("payload-fields").textContent()).toContain("Miktar");
    await page.getByTestId("technical-detail").click();
    await expect.poll(() => page.getByTestId("payload-raw").textContent()).toContain('"qty": -1');
    await page.keyboard.press("Escape");
    await page.getByRole("textbox", { name: "Arama", exact: true }).fill("");
    await expect.poll(() => page.getByTestId("failed-task-row").count()).toBe(3);

    await page.getByRole("switch", { name: "Nedene göre grupla" }).check();
    await expect.poll(() => page.getByTestId("failed-task-group").count()).toBe(2);
    const group = page.getByTestId("failed-task-group").filter({ hasText: "Negatif stok" });
    await group.getByRole("button", { name: "Gruptakileri seç" }).click();
    await page.getByRole("button", { name: "Seçilenleri Sil (2)" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Sil", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("failed-tasks-notice").textContent())
      .toContain("2 kayıt silindi.");
    expect(deleted.sort()).toEqual([1, 2]);
    await expect.poll(() => page.getByTestId("failed-task-row").count()).toBe(1);
  });
  it("shows the sales report and run statistics for a date range and exports it to Excel", async () => {
    const page = await demoPage();
    await page.getByRole("link", { name: "Raporlar" }).click();
    await page.waitForURL("**/reports");
    const main = page.locator("main");
    await expect.poll(() => main.textContent()).toContain("Görev Çalışma İstatistikleri");
    expect(await main.textContent()).toContain("Satış Raporu");
    // The category run of the test above is this month's: it shows in the statistics.
    await expect.poll(() => main.textContent()).toContain("Kategori Aktarımı");
    const exportButton = page.getByRole("button", { name: "Excel'e Aktar" });
    if (await exportButton.isEnabled()) {
      const [download] = await Promise.all([page.waitForEvent("download"), exportButton.click()]);
      expect(download.suggestedFilename()).toMatch(/^satis-raporu-\d{4}-\d{2}-\d{2}-.*\.xlsx$/);
      expect(await page.getByTestId("report-total").textContent()).toMatch(/ ₺$/);
    } else {
      expect(await main.textContent()).toContain("Bu tarih aralığında sipariş bulunmuyor.");
    }
  });
});
