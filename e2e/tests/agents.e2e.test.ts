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

describe("the demo's on-site agent in the panel", () => {
  it("shows the agent online on the dashboard and on the ERP card, with the picker on it", async () => {
    const page = await demoPage();
    // The demo server started a real agent process and routed the demo ERP through it.
    const onDashboard = page.getByTestId("dashboard-agent-status");
    await onDashboard.waitFor({ timeout: 30_000 });
    await expect.poll(() => onDashboard.getAttribute("data-online"), { timeout: 30_000 }).toBe("true");
    expect(await onDashboard.textContent()).toContain("Yerel bağlantı aracı");
    expect(await onDashboard.textContent()).toContain("Sürüm: 0.1.0");

    await page.goto("/settings/api-keys");
    const picker = page.getByTestId("agent-picker");
    await picker.waitFor();
    // The agents' list loads beside the form: its entry shows once it is in.
    await expect.poll(() => picker.inputValue()).toMatch(/^Yerel bağlantı aracı: .+ \(Çevrimiçi\)$/);
    const onCard = page.getByTestId("connection-agent-status");
    await expect.poll(() => onCard.getAttribute("data-online")).toBe("true");
    expect(await onCard.textContent()).toContain("Gidiş-dönüş");
    // The agents card says which connection the agent serves and that it is the active one.
    const agentsCard = page.getByTestId("agents-card");
    await expect.poll(() => agentsCard.textContent()).toContain("ERP · etkin");
    expect(await agentsCard.getByRole("button", { name: "ERP'den çıkar" }).count()).toBe(1);
    // The connection test goes through the agent and succeeds.
    await page.getByTestId("connection-erp").getByRole("button", { name: "Bağlantıyı Test Et" }).click();
    const result = page.getByTestId("connection-test-erp");
    await result.waitFor({ timeout: 30_000 });
    await expect.poll(() => result.textContent()).toContain("başarılı");
  }, 120_000);

  it("shows the agent's version and its update hours (night by default), which the merchant changes", async () => {
    const page = await demoPage();
    await page.goto("/settings/api-keys");
    const card = page.getByTestId("agents-card");
    const from = card.getByLabel("Başlangıç saati");
    await from.waitFor({ timeout: 30_000 });
    expect(await card.getByRole("columnheader", { name: "Güncelleme saatleri" }).count()).toBe(1);
    expect(await card.textContent()).toContain("0.1.0");
    expect(await from.inputValue()).toBe("02:00");
    expect(await card.getByLabel("Bitiş saati").inputValue()).toBe("05:00");
    await from.click();
    await page.getByRole("option", { name: "03:00" }).click();
    await page.getByText("Güncelleme saatleri kaydedildi").waitFor();
    await page.reload();
    await expect
      .poll(() => page.getByTestId("agents-card").getByLabel("Başlangıç saati").inputValue())
      .toBe("03:00");
    // Back to the default, for the other suites.
    await page.getByTestId("agents-card").getByLabel("Başlangıç saati").click();
    await page.getByRole("option", { name: "02:00" }).click();
    await page.getByText("Güncelleme saatleri kaydedildi").first().waitFor();
  }, 120_000);
});
