import { describe, expect, it } from "vitest";
import { expectPath, newUser, registerByApi, signIn } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();

describe("record retention in the panel (issue 34, item 5)", () => {
  it("shows the recommended periods, refuses one out of bounds in Turkish, saves, and keeps them after a reload", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await signIn(page, user.email, user.password);

    await page.goto("/settings");
    await page.getByRole("link", { name: /^Kayıt saklama süreleri/ }).click();
    await expectPath(page, "/settings/retention");
    await expect.poll(() => page.getByText("Henüz temizlik yapılmadı.", { exact: false }).count()).toBe(1);

    const runs = page.getByRole("textbox", { name: "Çalışma geçmişi" });
    expect(await runs.inputValue()).toBe("365 gün");
    const save = page.getByRole("button", { name: "Kaydet" });
    expect(await save.isDisabled()).toBe(true);

    await runs.fill("5");
    await runs.blur();
    await expect
      .poll(() => page.getByText("Süre, alanın altında yazan en kısa süreden az olamaz.").count())
      .toBe(1);

    await runs.fill("180");
    const notes = page.getByRole("textbox", { name: "Bildirimler" });
    await notes.fill("30");
    await save.click();
    await expect.poll(() => page.getByText("Saklama süreleri kaydedildi.", { exact: false }).count()).toBe(1);

    await page.reload();
    await expect
      .poll(() => page.getByRole("textbox", { name: "Çalışma geçmişi" }).inputValue())
      .toBe("180 gün");
    expect(await page.getByRole("textbox", { name: "Bildirimler" }).inputValue()).toBe("30 gün");
  }, 120_000);
});
