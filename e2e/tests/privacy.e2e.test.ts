import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { expectPath, newUser, registerByApi, signIn, signInSupport } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();

describe("KVKK: data export and account deletion in the panel", () => {
  it("exports the data, requests the deletion after confirming, support sees it, and the company cancels it", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);

    // Reached from the settings overview.
    await page.goto("/settings");
    await page.getByRole("link", { name: "Gizlilik ve KVKK" }).click();
    await expectPath(page, "/settings/privacy");

    // Export: JSON holding the company's own records, and an Excel workbook.
    const [json] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "JSON olarak indir" }).click(),
    ]);
    expect(json.suggestedFilename()).toMatch(/^entegrasyon-paneli-verileri-.*\.json$/);
    const data = JSON.parse(await readFile((await json.path())!, "utf8"));
    expect(data.company[0].name).toBe(user.company_Name);
    expect(data.users[0].email).toBe(user.email);
    const [xlsx] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Excel olarak indir" }).click(),
    ]);
    expect(xlsx.suggestedFilename()).toMatch(/\.xlsx$/);
    const zip = await readFile((await xlsx.path())!);
    expect(zip.subarray(0, 2).toString()).toBe("PK");

    // The confirmation step: nothing is sent without the checkbox, a wrong password is refused.
    await page.getByRole("button", { name: "Hesabımı silmek istiyorum" }).click();
    const dialog = page.getByRole("dialog", { name: "Hesap silme talebini onaylayın" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Silme talebini gönder" }).click();
    await expect
      .poll(() => dialog.textContent())
      .toContain("Devam etmek için hesabın ve verilerin silineceğini onaylayınız.");
    await dialog.getByRole("checkbox").check();
    await dialog.getByLabel("Mevcut şifreniz").fill("Yanlis.Sifre9");
    await dialog.getByRole("button", { name: "Silme talebini gönder" }).click();
    await expect.poll(() => dialog.textContent()).toContain("Şifre doğrulanamadı.");
    await dialog.getByLabel("Mevcut şifreniz").fill(user.password);
    await dialog.getByRole("button", { name: "Silme talebini gönder" }).click();
    await expect.poll(() => page.getByText("Hesap silme talebiniz alındı.").count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Hesabınız silinmek üzere").count()).toBe(1);
    expect(await page.locator("main").textContent()).toContain("30 gün kaldı");

    // Support sees the pending deletion.
    const support = await browser.newPage();
    await signInSupport(support);
    await support.getByRole("link", { name: "Silme Talepleri" }).click();
    await expectPath(support, "/support/deletions");
    const row = support.getByRole("row").filter({ hasText: user.company_Name });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.textContent()).toContain(user.email);

    // The company cancels within the grace period; support's list no longer shows it.
    await page.getByRole("button", { name: "Silme talebini iptal et" }).click();
    await expect
      .poll(() => page.getByText("Hesap silme talebiniz iptal edildi.", { exact: false }).count())
      .toBeGreaterThan(0);
    await expect.poll(() => page.getByRole("button", { name: "Hesabımı silmek istiyorum" }).count()).toBe(1);
    await support.reload();
    await support.getByRole("heading", { name: "Bekleyen Hesap Silme Talepleri" }).waitFor();
    await expect.poll(() => support.getByRole("row").filter({ hasText: user.company_Name }).count()).toBe(0);
    expect(browser.pageErrors).toEqual([]);
  });
});
