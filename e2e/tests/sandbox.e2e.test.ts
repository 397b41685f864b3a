import { describe, expect, it } from "vitest";
import { signInWithSandboxes, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
/** Connecting tests both live sandboxes and a run calls them: allow some seconds. */
const eventually = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout });

describe("sandbox systems for a new company", () => {
  it("registers, connects the sandboxes and a ticked marketplace from the dashboard, and a stock run succeeds", async () => {
    // Registered with Logo (no sandbox: Mikro stands in) and JetStok (its own files-only sandbox panel);
    // Hepsiburada ticked in the dashboard button's dialog (issue 37) comes as a sandbox sales channel.
    const { page } = await signInWithSandboxes(browser, { erpType: 4, ecommerceType: 7 }, 90_000, [
      "Hepsiburada",
    ]);

    // Both connections marked as sandboxes, with the company's own sandbox login on the form.
    await page.goto("/settings/api-keys");
    await waitForShell(page);
    const erpCard = page.getByTestId("connection-erp");
    const shopCard = page.getByTestId("connection-ecommerce");
    await eventually(() => erpCard.getByText("Deneme sistemi", { exact: true }).count()).toBeGreaterThan(0);
    expect(await shopCard.getByText("Deneme sistemi", { exact: true }).count()).toBeGreaterThan(0);
    expect(await erpCard.getByText("Bağlı", { exact: true }).count()).toBe(1);
    const login = erpCard.getByTestId("sandbox-credentials-erp");
    await eventually(() => login.textContent()).toContain("/sandbox/mikro/");
    expect(await shopCard.getByTestId("sandbox-credentials-ecommerce").textContent()).toContain(
      "/sandbox/jetstok/",
    );
    // Connected to both: the one-click offer is gone from this screen.
    expect(await page.getByRole("button", { name: "Deneme sistemlerine bağlan" }).count()).toBe(0);
    // The ticked marketplace is a working sandbox channel beside the shop; the others were not connected.
    const channels = page.getByTestId("channels-card");
    const hepsiburada = channels.getByTestId("channel-hepsiburada");
    await eventually(() => hepsiburada.getByTestId("channel-status-hepsiburada").textContent()).toBe("Bağlı");
    expect(await hepsiburada.getByText("Deneme sistemi", { exact: true }).count()).toBe(1);
    expect(await channels.locator('[data-testid^="channel-status-"]').count()).toBe(1);

    // A stock run against the sandboxes ends successfully (it may queue behind the demo company's
    // first product transfer on the shared worker, hence the long test timeout).
    await page.goto("/integration/product");
    await waitForShell(page);
    // The shop's jobs alone (the marketplace has its own stock job).
    await page.getByRole("combobox", { name: "Satış kanalı" }).click();
    await page.getByRole("option", { name: "Mağaza", exact: true }).click();
    const stock = page.locator('[data-testid="job-card"][data-job-type="StockIntegration"]');
    const runNow = stock.getByTestId("run-now");
    await eventually(() => runNow.isEnabled()).toBe(true);
    await runNow.click();
    await eventually(() => stock.getByText("Başarılı", { exact: true }).count(), 150_000).toBe(1);

    // "Gerçek sisteme geç" opens an empty form for the real login; the sandbox login stays listed until saved.
    await page.goto("/settings/api-keys");
    await waitForShell(page);
    await erpCard.getByRole("button", { name: "Gerçek sisteme geç" }).click();
    await eventually(() =>
      erpCard.getByText("Gerçek sisteminizin bağlantı bilgilerini girip", { exact: false }).count(),
    ).toBe(1);
  }, 240_000);
});
