import { mkdirSync } from "node:fs";
import ExcelJS from "exceljs";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  expectPath,
  field,
  newUser,
  registerByApi,
  signIn,
  signInAsDemo,
  waitForShell,
} from "../support/app.ts";
import { mailboxDir, settled, useBrowser } from "../support/browser.ts";
import { waitForMail } from "../support/mailbox.ts";
import { COMPANY_ROUTES } from "../support/routes.ts";
import { SUPPORT_ACCOUNT } from "../support/support-account.ts";

/** Issue 12, "The panel a merchant trusts": defects 1, 2, 5, 6 and 7 in the browser. */
const browser = useBrowser();
const SHOTS = new URL("../test-results/", import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });

/** The bearer token of a signed-in page (the spec's 'authKey' cookie). */
async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === "authKey");
  if (!cookie) throw new Error("not signed in");
  return cookie.value;
}

async function api<T>(page: Page, method: "GET" | "POST", path: string, token: string, data?: unknown) {
  const res = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${token}` },
    data,
  });
  return { status: res.status(), body: (await res.json()) as { data: T; message: string } };
}

/** Turkish money text ("1.234,56 ₺") as cents. */
const centsOf = (text: string) => Math.round(Number(text.replace(/[^\d,-]/g, "").replace(",", ".")) * 100);

describe("issue 12: the panel a merchant trusts", () => {
  it("exports every order of the filter to Excel, its rows adding up to the Toplam on screen", async () => {
    const page = await browser.newPage();
    await signInAsDemo(page);
    const token = await tokenOf(page);
    // The demo shop's 40 orders reach the ledger with an order transfer run.
    const jobs = await api<{ id: number; type: string }[]>(
      page,
      "GET",
      "/api/Job/type-filter/OrderIntegration",
      token,
    );
    const orderJob = jobs.body.data.find((j) => j.type === "OrderIntegration");
    if (!orderJob) throw new Error("the demo has an order job");
    await api(page, "POST", `/api/Job/run-job?jobId=${orderJob.id}`, token);
    // Until the run has ended the ledger still grows, and the screen and the export would count
    // different orders (a 409 above means a scheduled run was already under way: wait for that one).
    await expect
      .poll(
        async () =>
          (
            await api<{ id: number; active_run: unknown }[]>(
              page,
              "GET",
              "/api/Job/type-filter/OrderIntegration",
              token,
            )
          ).body.data.find((j) => j.id === orderJob.id)?.active_run ?? null,
        { timeout: 120_000, interval: 500 },
      )
      .toBeNull();
    const ledger = await api<{ totalCount: number }>(
      page,
      "GET",
      "/api/SalesReport?pageNumber=1&pageSize=1",
      token,
    );
    expect(ledger.body.data.totalCount).toBeGreaterThan(20);

    await page.goto("/reports");
    await waitForShell(page);
    // All dates: clear the start date, so the list runs over more than one page. The count shown
    // first is the default range's; wait for the wider one (the filter refetches).
    const shownCount = async () =>
      Number((await page.getByTestId("report-count").textContent())?.replace(/\./g, "") || Number.NaN);
    await expect.poll(shownCount, { timeout: 30_000 }).toBeGreaterThan(0);
    const defaultRange = await shownCount();
    const start = page.getByLabel("Başlangıç Tarihi", { exact: true });
    await start.locator("xpath=..").getByRole("button").last().click();
    await expect.poll(shownCount, { timeout: 30_000 }).toBeGreaterThan(defaultRange);
    const count = await shownCount();
    const total = centsOf((await page.getByTestId("report-total").textContent()) ?? "");
    expect(count).toBeGreaterThan(20);
    expect(await page.getByTestId("sales-row").count()).toBe(20);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Excel'e Aktar" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^satis-raporu-.*\.xlsx$/);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(await download.path());
    const sheet = workbook.worksheets[0]!;
    const rows: ExcelJS.CellValue[][] = [];
    sheet.eachRow((row) => rows.push((row.values as ExcelJS.CellValue[]).slice(1)));
    const orders = rows.slice(1, -1);
    expect(orders).toHaveLength(count);
    expect(orders.reduce((sum, r) => sum + Math.round(Number(r[4]) * 100), 0)).toBe(total);
    expect(rows.at(-1)?.[0]).toBe("Toplam");
    expect(browser.pageErrors).toEqual([]);
  }, 240_000);

  it("refuses a start date after the end date, in Turkish, with Mantine's Turkish date pickers", async () => {
    const page = await browser.newPage();
    await signInAsDemo(page);
    await page.goto("/reports");
    await waitForShell(page);
    const day = (d: number) => {
      const now = new Date();
      const date = new Date(now.getFullYear(), now.getMonth(), d);
      return new Intl.DateTimeFormat("tr-TR", { day: "numeric", month: "long", year: "numeric" }).format(
        date,
      );
    };
    // No native mm/dd/yyyy input: a picker button showing DD-MM-YYYY (as every date on screen), its calendar in Turkish.
    expect(await page.locator('input[type="date"]').count()).toBe(0);
    const end = page.getByLabel("Bitiş Tarihi", { exact: true });
    expect(await end.textContent()).toMatch(/^\d{2}-\d{2}-\d{4}$/);
    await end.click();
    // The calendar opens (its Turkish weekday names) once the picker has rendered.
    await expect.poll(() => page.getByText(/^(Pzt|Pt)$/).count(), { timeout: 10_000 }).toBeGreaterThan(0);
    // A closing picker's calendar stays in the page while it fades out: wait until no calendar is
    // shown before opening the other picker, so each click lands in the calendar just opened.
    const shownDays = (name: string) =>
      page.getByRole("button", { name, exact: true }).filter({ visible: true });
    await shownDays(day(1)).click();
    await page.keyboard.press("Escape");
    await expect.poll(() => shownDays(day(1)).count(), { timeout: 10_000 }).toBe(0);
    await page.getByLabel("Başlangıç Tarihi", { exact: true }).click();
    await shownDays(day(2)).click();
    await expect
      .poll(() =>
        page.getByText("Başlangıç tarihi bitiş tarihinden sonra olamaz; tarihleri düzeltin.").count(),
      )
      .toBe(1);
    // The server refuses the same, in Turkish.
    const token = await tokenOf(page);
    const refused = await page.request.get(
      "/api/SalesReport/export?startDate=2026-10-20&endDate=2026-10-01",
      {
        headers: { authorization: `Bearer ${token}` },
      },
    );
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toContain("Başlangıç tarihi");
  });

  it("works at 390 px on every route: nothing off-screen, sign-out and the user menu reachable", async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsDemo(page);
    await page.screenshot({ path: `${SHOTS}after-390-dashboard.png`, fullPage: false });
    const wide: string[] = [];
    for (const route of COMPANY_ROUTES) {
      await page.goto(route);
      await waitForShell(page);
      await page.locator("#main-content").waitFor();
      await settled(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 390) wide.push(`${route}: ${width}px`);
      // The header is fixed, so an overflowing one does not widen the document: check it itself.
      const header = await page.evaluate(() => {
        const el = document.querySelector("header");
        const rights = Array.from(el?.querySelectorAll("button, a") ?? [])
          .map((b) => b.getBoundingClientRect())
          .filter((r) => r.width > 0)
          .map((r) => r.right);
        return Math.max(el?.scrollWidth ?? 0, ...rights);
      });
      if (header > 390) wide.push(`${route} header: ${Math.round(header)}px`);
    }
    expect(wide).toEqual([]);

    await page.goto("/dashboard");
    await waitForShell(page);
    // The user menu: Profilim, Uygulama Dili and Çıkış inside the screen.
    await page.getByTestId("user-menu").click();
    for (const name of ["Profilim", "Uygulama Dili", "Çıkış"]) {
      const item = page.getByRole("menuitem", { name: new RegExp(name) });
      const box = await item.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
    }
    await page.screenshot({ path: `${SHOTS}after-390-user-menu.png` });
    // The language submenu opens inside the screen too.
    await page.getByRole("menuitem", { name: /Uygulama Dili/ }).click();
    const turkish = page.getByRole("menuitem", { name: "Türkçe", exact: true });
    await turkish.waitFor();
    const tbox = await turkish.boundingBox();
    expect(tbox && tbox.x >= 0 && tbox.x + tbox.width <= 390).toBe(true);
    await page.keyboard.press("Escape");
    // The burger menu holds the quick links, the activities, Profilim and Çıkış.
    await page.getByRole("button", { name: "Menüyü aç/kapat" }).first().click();
    const phoneMenu = page.getByTestId("phone-menu");
    await phoneMenu.waitFor();
    for (const text of ["Hızlı Linkler", "Son Aktiviteler", "Profilim", "Çıkış"]) {
      expect(await phoneMenu.textContent()).toContain(text);
    }
    await page.screenshot({ path: `${SHOTS}after-390-burger-menu.png` });
    await page.getByTestId("phone-logout").click();
    await expectPath(page, "/account/login");
  }, 240_000);

  it("shows no report card for jobs a new company does not have", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    // The dashboard has loaded (its freshness card says there are no jobs yet), and no report card
    // claims a job "henüz çalışmadı" that the company does not have.
    await page.getByTestId("freshness-card").getByTestId("freshness-empty").waitFor();
    expect(await page.getByTestId("integration-report").count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}after-1440-new-company-dashboard.png`, fullPage: true });
  });

  it("a disabled job's switch reads Pasif; job statistics carry thousands separators", async () => {
    const page = await browser.newPage();
    await signInAsDemo(page);
    await page.goto("/integration/product");
    const card = page.locator('[data-testid="job-card"][data-job-type="ProductUpdate"]');
    await card.waitFor();
    const toggle = card.getByRole("switch");
    // The switch follows the server's answer, so click and wait rather than uncheck().
    if (await toggle.isChecked()) {
      await toggle.click();
      await expect.poll(() => toggle.isChecked()).toBe(false);
    }
    const label = await card
      .locator("label")
      .filter({ hasText: /^(Aktif|Pasif)$/ })
      .textContent();
    expect(label).toBe("Pasif");
    await toggle.click();
    await expect.poll(() => toggle.isChecked()).toBe(true);
    await expect
      .poll(() =>
        card
          .locator("label")
          .filter({ hasText: /^(Aktif|Pasif)$/ })
          .textContent(),
      )
      .toBe("Aktif");
    // Job statistics: the demo's stock run writes thousands of records; they read 3.009, not 3009.
    await page.goto("/reports");
    const stats = page.getByTestId("run-statistics");
    await stats.waitFor();
    await expect.poll(() => stats.textContent()).toMatch(/\d\.\d{3}/);
    const cells = await stats.locator("td").allTextContents();
    expect(cells.filter((c) => /^\d{4,}$/.test(c))).toEqual([]);
  });

  it("shows the announcement date as DD-MM, whole", async () => {
    const page = await browser.newPage();
    const login = await page.request.post("/api/account/login", {
      data: { email: SUPPORT_ACCOUNT.email, password: SUPPORT_ACCOUNT.password },
    });
    const supportToken = ((await login.json()) as { data: { token: string } }).data.token;
    const made = await api(page, "POST", "/api/support/announcements", supportToken, {
      type: "Bilgi",
      content: "Bakım çalışması bu gece 02:00'de.",
    });
    expect(made.status).toBe(200);
    await signInAsDemo(page);
    const badge = page.getByTestId("announcement-date").first();
    await badge.waitFor();
    expect(await badge.textContent()).toMatch(/^\d{2}-\d{2}$/);
    // Not cut to "2…": the label fits its badge.
    expect(
      await badge.evaluate((el) => {
        const label = el.querySelector("span") ?? el;
        return label.scrollWidth <= label.clientWidth + 1;
      }),
    ).toBe(true);
  });

  it("shows a failed task's payload as a field list, the raw form behind 'Teknik ayrıntı', error types in Turkish", async () => {
    const page = await browser.newPage();
    await signInAsDemo(page);
    // A fixed failed task of the kind the shop connector reports (an unknown depot).
    const item = {
      id: 41,
      jobId: 1,
      jobType: "StockIntegration",
      jobRunId: 7,
      entityKey: "MK-1001",
      errorType: "unknown_item",
      message: "Mağazada bu depo bulunamadı; Stok Lokasyonları ayarından eşleştirin.",
      payload: { sku: "MK-1001", location: "DEPO-9", qty: 3133, price: 89.5 },
      status: "Open",
      occurrences: 1,
      created_date: new Date().toISOString(),
      last_seen_date: new Date().toISOString(),
      resolved_date: null,
    };
    await page.route("**/api/JobErrorReport/**", (route) =>
      route.fulfill({
        json: {
          successful: true,
          statusCode: 200,
          message: "İşlem başarılı.",
          data: { dataList: [item], totalCount: 1, pageNumber: 1, pageSize: 20 },
        },
      }),
    );
    await page.goto("/integration/product/failed-tasks?jobType=StockIntegration");
    const row = page.getByTestId("failed-task-row").first();
    await row.waitFor();
    expect(await row.textContent()).toContain("Karşı sistemde bulunamadı");
    expect(await page.locator("main").textContent()).not.toContain("unknown_item");
    await row.getByRole("button", { name: "Detay" }).click();
    const detail = page.getByTestId("error-detail");
    const fields = detail.getByTestId("payload-fields");
    await fields.waitFor();
    expect(await fields.textContent()).toContain("Stok kodu");
    expect(await fields.textContent()).toContain("Lokasyon");
    expect(await fields.textContent()).toContain("3.133");
    expect(await detail.getByTestId("payload-raw").isVisible()).toBe(false);
    await page.screenshot({ path: `${SHOTS}after-1440-failed-task-detail.png` });
    await detail.getByTestId("technical-detail").click();
    await expect.poll(() => detail.getByTestId("payload-raw").isVisible()).toBe(true);
    expect(await detail.getByTestId("payload-raw").textContent()).toContain('"qty": 3133');
    expect(await detail.textContent()).toContain("unknown_item");
    // A price with two decimals (it read "89,5").
    expect(await fields.textContent()).toContain("89,50 ₺");

    // 'Destek talebi aç' starts the ticket with the job, the record and the reason, not "#41".
    await detail.getByTestId("open-ticket").click();
    await page.getByTestId("ticket-subject").waitFor();
    const subject = await page.getByTestId("ticket-subject").inputValue();
    expect(subject).toBe(`Stok Güncelleme · MK-1001: ${item.message}`.slice(0, 150));
    const linked = (await page.getByTestId("ticket-linked").textContent()) ?? "";
    expect(linked).toContain('Stok Güncelleme görevinin "MK-1001" kaydı');
    expect(linked).not.toContain("#");
    const message = await page.getByTestId("ticket-message").inputValue();
    expect(message).toContain("Görev: Stok Güncelleme\nKayıt: MK-1001\nHata: Mağazada bu depo bulunamadı");
  });

  it("lands on sign-in with a message after an unusable reset link and after a session ended by a reset", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await page.goto("/account/reset-password?rowid=kullanilmis-kod");
    await expectPath(page, "/account/login");
    await expect
      .poll(() => page.getByTestId("sign-in-note").textContent())
      .toContain("Şifre sıfırlama bağlantısı geçersiz, süresi dolmuş ya da daha önce kullanılmış.");
    expect(await page.getByRole("link", { name: "Yeni bağlantı isteyin" }).count()).toBe(1);

    // Signed in here; the password is reset elsewhere: the next call ends this session.
    await signIn(page, user.email, user.password);
    const other = await browser.newPage();
    await other.request.post(`/api/account/recover-password?email=${encodeURIComponent(user.email)}`);
    const mail = await waitForMail(mailboxDir(), user.email, (m) => m.text.includes("reset-password"));
    const rowid = new URL(
      mail.text.match(/https?:\/\/\S+\/account\/reset-password\?rowid=[^\s]+/)![0],
    ).searchParams.get("rowid")!;
    const reset = await other.request.post("/api/account/reset-password", {
      data: { rowid, newPassword: "Yeni.Sifre7", confirmPassword: "Yeni.Sifre7" },
    });
    expect(reset.status()).toBe(200);
    await page.goto("/reports");
    await expectPath(page, "/account/login");
    await expect
      .poll(() => page.getByTestId("sign-in-note").textContent())
      .toContain("şifreniz değiştirildiği için oturum kapatıldı");

    // The same (now used) link again: sign-in with the note, not a silent bounce.
    await other.goto(`/account/reset-password?rowid=${encodeURIComponent(rowid)}`);
    await expectPath(other, "/account/login");
    await expect
      .poll(() => other.getByTestId("sign-in-note").textContent())
      .toContain("daha önce kullanılmış");
    await field(other, "E-Posta").waitFor();
  });

  it("keeps the registration submit disabled while the form is invalid, from the start", async () => {
    const page = await browser.newPage();
    await page.goto("/account/registration");
    const submit = page.getByRole("button", { name: "Kayıt Ol" });
    await submit.waitFor();
    expect(await submit.isDisabled()).toBe(true);
    expect(await page.getByText("zorunlu alanların hepsi doğru doldurulunca").count()).toBe(1);
  });

  it("links a short About page from the footer and keeps the header ticket icon hidden", async () => {
    const page = await browser.newPage();
    await signInAsDemo(page);
    expect(await page.getByTestId("tickets-button").isVisible()).toBe(false);
    await page.locator("footer").getByRole("link", { name: "Hakkında" }).click();
    await expectPath(page, "/about");
    await expect.poll(() => page.locator("main").textContent()).toContain("muhasebe programınızı (ERP)");
  });
});
