import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { newUser, registerByApi, signIn, waitForShell } from "../support/app.ts";
import { axeViolations } from "../support/axe.ts";
import { useBrowser } from "../support/browser.ts";

/**
 * Issue 37 end to end: a new company on Mikro and IKAS connects its sandboxes and two marketplace
 * sandboxes from the connections screen, sets a channel up, sees each channel's jobs through the channel
 * selector, moves each channel's orders into Mikro once, and sees every channel on the dashboard.
 */
const browser = useBrowser();
/** Connecting tests four live sandboxes and runs call them; runs may queue behind the demo's. */
const eventually = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout });

type Channel = { id: number; system: string; name: string };
type Run = { id: number; jobId: number; status: string; counts: { written: number } };

async function api<T>(page: Page, path: string): Promise<T> {
  const cookie = (await page.context().cookies()).find((c) => c.name === "authKey");
  if (!cookie) throw new Error("not signed in");
  const res = await page.request.get(path, {
    headers: { authorization: `Bearer ${decodeURIComponent(cookie.value)}` },
  });
  expect(res.status(), path).toBe(200);
  return ((await res.json()) as { data: T }).data;
}

/** Every order run of the company (or of one channel) so far, newest first. */
const orderRuns = async (page: Page, channel?: number) =>
  (
    await api<{ dataList: Run[] }>(
      page,
      `/api/JobHistory?jobTypes=OrderIntegration&pageSize=100${channel ? `&channel=${channel}` : ""}`,
    )
  ).dataList;

/** axe on the page once a dialog's fade-in (Mantine: 200 ms) is over: half-faded text measures too pale. */
async function settledAxe(page: Page, where: string) {
  await page.waitForTimeout(500);
  return axeViolations(page, where);
}

const FINISHED = ["Succeeded", "PartiallyFailed", "Failed", "Cancelled"];

describe("sales channels beside the shop, for a new company", () => {
  it("connects Mikro, IKAS, Trendyol and N11 sandboxes, runs each channel's orders into Mikro once, and shows every channel", async () => {
    const user = newUser({ erpType: 9, ecommerceType: 1 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);

    // The connections screen: no marketplace yet, and the sandbox offer lists the marketplaces to tick.
    await page.goto("/settings/api-keys");
    await waitForShell(page);
    const card = page.getByTestId("channels-card");
    await eventually(() => card.textContent()).toContain("Henüz pazaryeri bağlamadınız.");
    const trendyolBox = page.getByRole("checkbox", { name: "Trendyol", exact: true });
    await trendyolBox.waitFor();
    for (const name of ["Hepsiburada", "Trendyol"]) {
      expect(await page.getByRole("checkbox", { name, exact: true }).count()).toBe(1);
    }
    const n11Box = page.getByRole("checkbox", { name: /^n11$/i });
    expect(await n11Box.count()).toBe(1);
    expect(await page.getByRole("checkbox", { name: /amazon/i }).count()).toBe(1);
    // The offer with its marketplaces, the empty channel list, then each dialog: no WCAG finding (axe).
    expect(await settledAxe(page, "sandbox offer")).toEqual([]);
    await trendyolBox.check();
    await n11Box.check();
    await page.getByRole("button", { name: "Deneme sistemlerine bağlan" }).click();
    await eventually(
      () => page.getByText("Deneme sistemlerine bağlandınız.", { exact: false }).count(),
      90_000,
    ).toBeGreaterThan(0);

    // Both marketplaces listed as working sandbox channels with their jobs; the ERP and shop cards as before.
    for (const system of ["trendyol", "n11"]) {
      const row = card.getByTestId(`channel-${system}`);
      await eventually(() => row.getByTestId(`channel-status-${system}`).textContent()).toBe("Bağlı");
      expect(await row.getByText("Deneme sistemi", { exact: true }).count()).toBe(1);
      expect(await row.textContent()).toContain("Stok, fiyat ve sipariş görevleri hazır.");
    }
    expect(await page.getByTestId("connection-status-erp").textContent()).toBe("Bağlı");
    expect(await page.getByTestId("connection-status-ecommerce").textContent()).toBe("Bağlı");
    const channels = await api<Channel[]>(page, "/api/channels");
    expect(channels.map((c) => c.system)).toEqual(["trendyol", "n11"]);

    // A marketplace's form comes from its connector; a login left empty is refused field by field.
    await card.getByRole("button", { name: "Pazaryeri ekle" }).click();
    const addDialog = page.getByRole("dialog", { name: "Pazaryeri ekle" });
    await addDialog.getByRole("button", { name: "Bağlantıyı Test Et" }).waitFor();
    await addDialog.getByRole("button", { name: "Bağlantıyı Test Et" }).click();
    await eventually(() =>
      addDialog.getByText("Bu alan zorunludur.", { exact: false }).count(),
    ).toBeGreaterThan(0);
    expect(await settledAxe(page, "add dialog")).toEqual([]);
    await page.keyboard.press("Escape");
    await addDialog.waitFor({ state: "detached" });

    // Trendyol's settings: 2 units held back, 10 % markup rounded to ,90, orders prefixed "TYE-", not invoiced.
    const trendyol = card.getByTestId("channel-trendyol");
    await trendyol.getByRole("button", { name: "Ayarlar" }).click();
    const settings = page.getByRole("dialog", { name: "Trendyol ayarları" });
    await settings.getByText("Adet", { exact: true }).click();
    await settings.getByLabel("Güvenlik stoğu (adet)").fill("2");
    await settings.getByLabel("Fiyat farkı (%)").fill("10");
    await settings.getByText(",90", { exact: true }).click();
    await settings.getByLabel("Sipariş öneki", { exact: false }).fill("TYE-");
    // Its orders are not invoiced by the panel (on by default).
    const invoices = settings.getByRole("switch", { name: "Bu kanalın siparişlerini faturala" });
    expect(await invoices.isChecked()).toBe(true);
    await invoices.uncheck();
    expect(await invoices.isChecked()).toBe(false);
    expect(await settledAxe(page, "settings dialog")).toEqual([]);
    await settings.getByRole("button", { name: "Kaydet" }).click();
    await eventually(() =>
      page.getByText("Satış kanalı ayarları kaydedildi.", { exact: false }).count(),
    ).toBeGreaterThan(0);
    const saved = (await api<Array<Channel & { settings: unknown }>>(page, "/api/channels"))[0]!;
    expect(saved.settings).toEqual({
      safety: { units: 2 },
      priceRule: { markupPercent: 10, rounding: "90" },
      orderPrefix: "TYE-",
      invoices: false,
    });
    // Tested again from its row: still connected.
    await trendyol.getByRole("button", { name: "Bağlantıyı Test Et" }).click();
    await eventually(() => page.getByText("Bağlantı başarılı", { exact: false }).count()).toBeGreaterThan(0);

    // Each channel's jobs through the channel selector: stock and price on the product screen, orders and
    // invoices here.
    await page.goto("/integration/order");
    await waitForShell(page);
    const select = page.getByRole("combobox", { name: "Satış kanalı" });
    const cards = page.getByTestId("job-card");
    for (const channel of channels) {
      await select.click();
      await page.getByRole("option", { name: channel.name, exact: true }).click();
      const orderCard = page.locator('[data-testid="job-card"][data-job-type="OrderIntegration"]');
      // Its order transfer and its invoice job (marketplace orders are invoiced by the seller).
      await eventually(async () =>
        (await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-job-type")))).sort(),
      ).toEqual(["InvoiceIntegration", "OrderIntegration"]);
      expect(await orderCard.getByTestId("job-channel").textContent()).toBe(channel.name);
      // Run its order transfer now (unless the scheduler's first run of it is under way) and wait for it.
      const before = (await orderRuns(page, channel.id)).length;
      const runNow = orderCard.getByTestId("run-now");
      await eventually(() => runNow.isEnabled(), 120_000).toBe(true);
      await runNow.click();
      await eventually(async () => {
        const runs = await orderRuns(page, channel.id);
        return runs.length > before && runs.every((r) => FINISHED.includes(r.status));
      }, 180_000).toBe(true);
      const runs = await orderRuns(page, channel.id);
      // Only this channel's runs under its filter, and they brought its orders into Mikro.
      expect(new Set(runs.map((r) => r.jobId)).size).toBe(1);
      expect(runs[0]!.status, `${channel.name} order run`).toBe("Succeeded");
      expect(
        runs.reduce((sum, r) => sum + r.counts.written, 0),
        `${channel.name} orders written`,
      ).toBeGreaterThan(0);
    }
    await page.goto("/integration/product");
    await waitForShell(page);
    await select.click();
    await page.getByRole("option", { name: "Trendyol", exact: true }).click();
    await eventually(async () =>
      (await cards.evaluateAll((els) => els.map((e) => e.getAttribute("data-job-type")))).sort(),
    ).toEqual(["PriceIntegration", "StockIntegration"]);

    // Once: every order written to Mikro is one confirmed row of the sales report, and no order is twice
    // (runs may still be started by the scheduler meanwhile: compared when both reads agree).
    await eventually(async () => {
      const written = (await orderRuns(page))
        .filter((r) => FINISHED.includes(r.status))
        .reduce((sum, r) => sum + r.counts.written, 0);
      const report = await api<{ dataList: Array<{ orderNo: string; state: string }>; totalCount: number }>(
        page,
        "/api/SalesReport?pageSize=100",
      );
      const confirmed = report.dataList.filter((o) => o.state === "confirmed");
      return written > 0 && written === confirmed.length && report.totalCount <= 100;
    }, 120_000).toBe(true);
    await page.goto("/reports");
    await waitForShell(page);
    await eventually(() => page.getByRole("main").textContent()).toContain("Onaylandı");

    // The dashboard: every channel's jobs together, each marketplace's marked with its name.
    await page.goto("/dashboard");
    await waitForShell(page);
    const jobs = page.getByTestId("integration-jobs-card");
    // The shop's 7, and each marketplace's stock, price, order and invoice jobs.
    await eventually(() => page.getByTestId("integration-job-row").count()).toBe(7 + 4 * 2);
    for (const name of ["Trendyol", channels[1]!.name]) {
      expect(await jobs.getByText(name, { exact: true }).count()).toBe(4);
    }

    // Removing a channel asks first, then takes its jobs with it.
    await page.goto("/settings/api-keys");
    await waitForShell(page);
    await card.getByTestId("channel-n11").getByRole("button", { name: "Kaldır" }).click();
    await page.getByTestId("channel-remove-confirm").waitFor();
    expect(await settledAxe(page, "remove dialog")).toEqual([]);
    await page.getByTestId("channel-remove-confirm").click();
    await eventually(() =>
      page.getByText("satış kanalı kaldırıldı.", { exact: false }).count(),
    ).toBeGreaterThan(0);
    await eventually(() => card.getByTestId("channel-n11").count()).toBe(0);
    expect((await api<Channel[]>(page, "/api/channels")).map((c) => c.system)).toEqual(["trendyol"]);
    expect(browser.pageErrors).toEqual([]);
  }, 600_000);
});
