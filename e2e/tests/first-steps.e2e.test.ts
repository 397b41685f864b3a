import { describe, expect, it } from "vitest";
import {
  connectSandboxes,
  expectPath,
  newUser,
  registerByApi,
  signIn,
  waitForShell,
} from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const eventually = <T>(read: () => Promise<T> | T, timeout = 30_000) => expect.poll(read, { timeout });

describe("first steps on a new company's dashboard (issue 40 item 1)", () => {
  it("guides an agent-only ERP company, ticks the sandbox connections and stays closed once closed", async () => {
    // Nebim runs on the company's own server: the step names the on-site agent.
    const user = newUser({ erpType: 1, ecommerceType: 1 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);

    const card = page.getByTestId("first-steps");
    await card.waitFor();
    const erp = card.getByTestId("first-step-erp");
    expect(await erp.getAttribute("data-done")).toBe("false");
    expect(await erp.textContent()).toContain("Nebim yalnızca yerel bağlantı aracıyla bağlanır");
    expect(await card.getByTestId("first-step-shop").textContent()).toContain(
      "IKAS bağlantı bilgileri henüz girilmedi",
    );
    expect(await card.getByTestId("first-step-firstSync").textContent()).toContain(
      "ERP ve e-ticaret bağlantıları kurulunca",
    );
    // A never-configured connection is not "broken": it says so and offers to connect.
    const erpStatus = page.getByTestId("connection-erp");
    expect(await erpStatus.getAttribute("data-state")).toBe("none");
    expect(await erpStatus.getByText("Bağlantı kurulmadı", { exact: true }).count()).toBe(1);
    expect(await erpStatus.getByRole("link", { name: "Bağlan", exact: true }).count()).toBe(1);
    expect(await page.getByText("Bağlantıyı düzelt").count()).toBe(0);

    // Each step's link goes to the one place that fixes it: for an agent-only ERP, pairing the agent.
    await erp.getByRole("link", { name: "Aracı eşleştir", exact: true }).click();
    await expectPath(page, "/settings/api-keys");
    await page.getByTestId("agents-card").waitFor();
    await page.goBack();
    await waitForShell(page);

    // The sandbox, offered in the ERP step at the top: both connection steps tick.
    await connectSandboxes(card);
    await eventually(() => card.getByTestId("first-step-erp").getAttribute("data-done")).toBe("true");
    await eventually(() => card.getByTestId("first-step-shop").getAttribute("data-done")).toBe("true");
    // The toast names the screens the runs start from.
    await eventually(() =>
      page.getByText("Ürün Entegrasyonu ve Sipariş Entegrasyonu ekranlarından").count(),
    ).toBe(1);
    const sync = card.getByTestId("first-step-firstSync");
    await eventually(() => sync.getByRole("link", { name: "Ürün Entegrasyonu'na git" }).count()).toBe(1);
    expect(await card.getByTestId("first-steps-progress").textContent()).toBe("2/5 tamamlandı");

    // Closed by the user: gone, and still gone after a reload.
    await card.getByRole("button", { name: "İlk adımlar kartını kapat" }).click();
    await eventually(() => page.getByTestId("first-steps").count()).toBe(0);
    await page.reload();
    await waitForShell(page);
    await page.getByTestId("connection-card").waitFor();
    expect(await page.getByTestId("first-steps").count()).toBe(0);
    expect(browser.pageErrors).toEqual([]);
  }, 120_000);

  it("leads JetStok (files) to its card and never shows the card to a company already syncing", async () => {
    const user = newUser({ erpType: 5, ecommerceType: 7 });
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);
    const shop = page.getByTestId("first-step-shop");
    await shop.waitFor();
    expect(await shop.textContent()).toContain("JetStok bağlantı bilgileri henüz girilmedi");
    expect(await page.getByTestId("first-step-erp").textContent()).toContain(
      "Dia bağlantı bilgileri henüz girilmedi",
    );

    // The demo company is connected and has synced: no checklist.
    const demoPage = await browser.newPage();
    const config = (await (await demoPage.request.get("/api/config")).json()) as {
      data: { demo: { email: string; password: string } | null };
    };
    if (!config.data.demo) throw new Error("the e2e server runs with the demo company");
    await signIn(demoPage, config.data.demo.email, config.data.demo.password);
    await demoPage.getByTestId("freshness-card").waitFor();
    expect(await demoPage.getByTestId("first-steps").count()).toBe(0);
  }, 90_000);
});
