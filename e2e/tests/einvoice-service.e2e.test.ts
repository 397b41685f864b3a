import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { field, signInWithSandboxes, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
/** The sandboxes answer over HTTP and the jobs share one worker with the demo: allow time. */
const eventually = <T>(read: () => Promise<T> | T, timeout = 60_000) => expect.poll(read, { timeout });

async function tokenOf(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === "authKey");
  if (!cookie) throw new Error("not signed in");
  return cookie.value;
}

async function api<T>(page: Page, method: "GET" | "POST", path: string, data?: unknown) {
  const res = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${await tokenOf(page)}` },
    data,
  });
  return (await res.json()) as { data: T; message: string };
}

/** Runs the company's order transfer and waits for its end: the IKAS sandbox's web orders reach the ledger. */
async function transferOrders(page: Page) {
  const jobs = await api<{ id: number; active_run: unknown }[]>(
    page,
    "GET",
    "/api/Job/type-filter/OrderIntegration",
  );
  const job = jobs.data[0];
  if (!job) throw new Error("the company has an order job once both sides are connected");
  await api(page, "POST", `/api/Job/run-job?jobId=${job.id}`);
  await expect
    .poll(
      async () =>
        (
          await api<{ id: number; active_run: unknown }[]>(
            page,
            "GET",
            "/api/Job/type-filter/OrderIntegration",
          )
        ).data.find((j) => j.id === job.id)?.active_run ?? null,
      { timeout: 180_000, interval: 1_000 },
    )
    .toBeNull();
}

describe("issue 35: an e-invoice service beside the ERP", () => {
  it("a Mikro + IKAS company adds Uyumsoft in settings; its web order becomes an e-Arşiv the customer opens", async () => {
    const { page } = await signInWithSandboxes(browser, { erpType: 9, ecommerceType: 1 }, 60_000);

    // Company settings: the seller's data an e-Arşiv needs, with the shop's web address.
    await page.goto("/settings/company");
    await waitForShell(page);
    await field(page, "Vergi Dairesi").fill("Kadıköy");
    await field(page, "Vergi Numarası").fill("3880512345");
    await page
      .getByRole("textbox", { name: "Adres", exact: true })
      .fill("Moda Cad. No: 12, Kadıköy/İstanbul");
    await field(page, "Web adresi").fill("magaza nokta com");
    await page.getByRole("button", { name: "Değişiklikleri Kaydet" }).click();
    await eventually(() => page.getByText("Geçerli bir web adresi giriniz", { exact: false }).count()).toBe(
      1,
    );
    await field(page, "Web adresi").fill("https://deneme-magaza.com.tr");
    await page.getByRole("button", { name: "Değişiklikleri Kaydet" }).click();
    await eventually(() => page.getByText("Geçerli bir web adresi giriniz", { exact: false }).count()).toBe(
      0,
    );

    // Faturalar before: the ERP issues the invoices; the screen points to where a service is added.
    await page.goto("/integration/order/invoices");
    await waitForShell(page);
    await eventually(() => page.getByTestId("invoice-route").getAttribute("data-route")).toBe("erp");
    await page.getByTestId("invoice-add-service").click();
    await eventually(() => new URL(page.url()).pathname).toBe("/settings/api-keys");

    // The third connection: Uyumsoft (sandbox), with the login its sandbox shows.
    const card = page.getByTestId("connection-einvoice");
    await card.waitFor();
    expect(await card.getByTestId("einvoice-help").textContent()).toContain("ERP'niz e-fatura kesmiyorsa");
    await card.getByRole("button", { name: "Deneme sistemi bilgilerini göster" }).click();
    const login = card.getByTestId("sandbox-credentials-einvoice");
    await eventually(() => login.textContent()).toContain("/sandbox/uyumsoft/");
    const sandboxes = await api<
      { connectionType: string; productType: number; credentials: Record<string, string> }[]
    >(page, "GET", "/api/sandbox");
    const uyumsoft = sandboxes.data.find((s) => s.connectionType === "einvoice" && s.productType === 8);
    if (!uyumsoft) throw new Error("the Uyumsoft sandbox is offered as an e-invoice service");
    const overview = await api<{
      connectors: {
        connectionType: string;
        productType: number;
        fields: { name: string; label: string; secret: boolean }[];
      }[];
    }>(page, "GET", "/api/settings/connections");
    const form = overview.data.connectors.find((c) => c.connectionType === "einvoice" && c.productType === 8);
    for (const f of form?.fields ?? []) {
      // A required label carries Mantine's asterisk: the accessible name (role) does not.
      const input = f.secret
        ? card.locator('input[type="password"]')
        : card.getByRole("textbox", { name: f.label, exact: true });
      await input.fill(uyumsoft.credentials[f.name] ?? "");
    }
    await card.getByRole("button", { name: "Kaydet" }).click();
    await eventually(() => card.getByTestId("connection-status-einvoice").textContent()).toBe("Bağlı");
    // The ERP stays Mikro.
    expect(
      await page.getByTestId("connection-erp").getByText("Mikro", { exact: false }).count(),
    ).toBeGreaterThan(0);

    // The dashboard's own card for it.
    await page.goto("/dashboard");
    await waitForShell(page);
    const serviceCard = page.getByTestId("einvoice-card");
    await eventually(() => serviceCard.textContent()).toContain("Uyumsoft");
    expect(await serviceCard.textContent()).toContain("Bağlı");

    // The shop's web orders reach the ledger; "Şimdi Faturala" issues them through Uyumsoft.
    await transferOrders(page);
    await page.goto("/integration/order/invoices");
    await waitForShell(page);
    await eventually(() => page.getByTestId("invoice-route").getAttribute("data-route")).toBe("service");
    await page.getByRole("button", { name: "Şimdi Faturala" }).click();
    const rows = page.locator('[data-testid="invoice-row"][data-source="service"]');
    await eventually(() => rows.count(), 120_000).toBeGreaterThan(0);
    await eventually(() => page.getByTestId("invoice-count").textContent()).toMatch(/Bu aralıkta \d+ fatura/);
    // An invoice the service took (a send still retrying has no document yet): run again until one is out.
    type Row = {
      source: string;
      number: string;
      type: string;
      state: string;
      message: string | null;
      link: string | null;
    };
    let listed: Row[] = [];
    await eventually(async () => {
      listed = (await api<Row[]>(page, "GET", "/api/invoices")).data;
      const out = listed.find((r) => r.source === "service" && r.link);
      if (!out) await api(page, "POST", "/api/invoices/run");
      return out ? "out" : JSON.stringify(listed.map((r) => [r.state, r.message]));
    }, 120_000).toBe("out");
    const issued = listed.find((r) => r.source === "service" && r.link) as Row;
    expect(issued.type).toBe("eArchive");
    await page.reload();
    await waitForShell(page);
    const first = page.locator('[data-testid="invoice-row"]', { hasText: issued.number });
    await eventually(() => first.count()).toBe(1);
    expect(await first.textContent()).toContain("e-Arşiv");

    // The customer's link (the one the shop order carries) opens as a page, and its PDF downloads.
    const href = await first.getByTestId("invoice-link").getAttribute("href");
    if (!href) throw new Error("an issued invoice has a customer link");
    const number = issued.number;
    const customer = await browser.newPage();
    await customer.goto(href);
    await eventually(() => customer.getByText(number, { exact: false }).count()).toBeGreaterThan(0);
    expect(await customer.getByText("e-Arşiv", { exact: false }).count()).toBeGreaterThan(0);
    const [download] = await Promise.all([
      customer.waitForEvent("download"),
      customer.getByRole("link", { name: "PDF olarak indir" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${number}.pdf`);
    expect((await readFile(await download.path())).subarray(0, 5).toString()).toBe("%PDF-");
    expect(browser.pageErrors).toEqual([]);
  }, 420_000);
});
