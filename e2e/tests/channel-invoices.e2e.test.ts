import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signInWithSandboxes, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const eventually = <T>(read: () => Promise<T> | T, timeout = 60_000) => expect.poll(read, { timeout });

async function api<T>(page: Page, method: "GET" | "POST" | "PUT", path: string, data?: unknown) {
  const cookie = (await page.context().cookies()).find((c) => c.name === "authKey");
  const res = await page.request.fetch(path, {
    method,
    headers: { authorization: `Bearer ${cookie?.value ?? ""}` },
    data,
  });
  return (await res.json()) as { data: T; message: string };
}

type Job = { id: number; channel_id: number | null; active_run: unknown };
type Row = {
  id: number;
  orderNo: string;
  channel: string | null;
  attached: boolean;
  trackingNumber: string | null;
  trackingSent: boolean;
};

describe("issue 37: a marketplace channel's orders are invoiced like the shop's", () => {
  it("a Trendyol order gets its e-invoice, its link goes to Trendyol, and the tracking number entered on Faturalar follows", async () => {
    const { page } = await signInWithSandboxes(browser, { erpType: 9, ecommerceType: 1 }, 60_000);
    const connected = await api<{ channels: { system: string; ok: boolean }[] }>(
      page,
      "POST",
      "/api/sandbox/connect",
      { channels: ["trendyol"] },
    );
    expect(connected.data.channels).toEqual([expect.objectContaining({ system: "trendyol", ok: true })]);
    const account = await api<{ company: { company_Name: string } }>(page, "GET", "/api/Account");
    await api(page, "PUT", "/api/Account/company", {
      company_Name: account.data.company.company_Name,
      tax_Office: "Kadıköy",
      tax_Number: "3880512345",
      address: "Moda Cad. No: 12, Kadıköy/İstanbul",
      phone: "",
      website: "https://deneme-magaza.com.tr",
    });
    const sandboxes = await api<{ connectionType: string; productType: number; credentials: unknown }[]>(
      page,
      "GET",
      "/api/sandbox",
    );
    const uyumsoft = sandboxes.data.find((s) => s.connectionType === "einvoice" && s.productType === 8);
    await api(page, "POST", "/api/settings/connection-setting-update/einvoice/8", {
      fields: uyumsoft?.credentials,
    });

    // The channel's orders reach the ledger through its own order job.
    const jobs = await api<Job[]>(page, "GET", "/api/Job/type-filter/OrderIntegration");
    const job = jobs.data.find((j) => j.channel_id !== null);
    if (!job) throw new Error("the Trendyol channel has its order job");
    await api(page, "POST", `/api/Job/run-job?jobId=${job.id}`);
    await eventually(
      async () =>
        (await api<Job[]>(page, "GET", "/api/Job/type-filter/OrderIntegration")).data.find(
          (j) => j.id === job.id,
        )?.active_run ?? null,
      180_000,
    ).toBeNull();

    // "Şimdi Faturala" covers the channels: a Trendyol row, its link sent.
    await page.goto("/integration/order/invoices");
    await waitForShell(page);
    await page.getByRole("button", { name: "Şimdi Faturala" }).click();
    let target: Row | undefined;
    await eventually(async () => {
      const rows = (await api<Row[]>(page, "GET", "/api/invoices")).data;
      target = rows.find((r) => r.channel === "Trendyol" && r.attached);
      if (!target) await api(page, "POST", "/api/invoices/run");
      return target ? "attached" : "waiting";
    }, 120_000).toBe("attached");
    await page.reload();
    await waitForShell(page);
    const row = page.locator('[data-testid="invoice-row"]', { hasText: (target as Row).orderNo });
    await eventually(() => row.getByTestId("invoice-channel").textContent()).toBe("Trendyol");

    // The merchant's own carrier: the tracking number, entered here, goes to Trendyol on the next run.
    await row.getByTestId("invoice-shipment").click();
    await page.getByTestId("shipment-tracking").fill("YK123456789");
    await page.getByTestId("shipment-carrier").fill("Yurtiçi Kargo");
    await page.getByTestId("shipment-save").click();
    await eventually(() => row.getByTestId("invoice-tracking").textContent()).toContain("YK123456789");
    await api(page, "POST", "/api/invoices/run");
    await eventually(async () => {
      const rows = (await api<Row[]>(page, "GET", "/api/invoices")).data;
      return rows.find((r) => r.id === (target as Row).id)?.trackingSent;
    }).toBe(true);
    await page.reload();
    await waitForShell(page);
    await eventually(() => row.getByTestId("invoice-tracking").textContent()).toContain(
      "Pazaryerine gönderildi",
    );
    expect(browser.pageErrors).toEqual([]);
  }, 420_000);
});
