import { describe, expect, it } from "vitest";
import { expectPath, field, newUser, registerByApi, signIn } from "../support/app.ts";
import { mailboxDir, useBrowser } from "../support/browser.ts";
import { waitForMail } from "../support/mailbox.ts";

const browser = useBrowser();

describe("forgot and reset password", () => {
  it("mails a reset link, resets the password and signs in with the new one", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();

    await page.goto("/account/login");
    await page.getByRole("link", { name: "Şifremi Unuttum?" }).click();
    await expectPath(page, "/account/forgot-password");
    // The router keeps the sign-in form (which has an 'E-Posta' field too) on screen until the
    // lazily loaded page is ready: fill the forgot-password form itself, once it is there.
    const forgotForm = page.getByRole("form", { name: "Şifrenizi mi unuttunuz?" });
    await forgotForm.waitFor();
    await field(forgotForm, "E-Posta").fill(user.email);
    await forgotForm.getByRole("button", { name: "Gönder" }).click();
    await expect
      .poll(() => page.getByTestId("forgot-status").textContent())
      .toBe("E-posta adresiniz kayıtlıysa şifre sıfırlama bağlantısı gönderildi.");

    const mail = await waitForMail(mailboxDir(), user.email, (m) => m.text.includes("reset-password"));
    const link = mail.text.match(/https?:\/\/\S+\/account\/reset-password\?rowid=[^\s]+/)?.[0];
    expect(link).toBeTruthy();

    await page.goto(link!);
    await field(page, "Yeni Şifre").waitFor();
    // The meter has five equal parts; this password meets all five rules.
    await field(page, "Yeni Şifre").fill("Yeni.Sifre7");
    expect(await page.getByRole("meter").getAttribute("aria-valuenow")).toBe("5");
    expect(await page.getByText("8 veya daha fazla karakter").count()).toBeGreaterThan(0);
    await field(page, "Yeni Şifre (Tekrar)").fill("Yeni.Sifre7");
    await page.getByRole("button", { name: "Şifremi Değiştir" }).click();
    await expect
      .poll(() => page.getByTestId("reset-done").textContent())
      .toContain("Şifreniz başarıyla değiştirildi");
    // …and after 3 seconds the sign-in screen.
    const redirectStarted = Date.now();
    await expectPath(page, "/account/login");
    expect(Date.now() - redirectStarted).toBeGreaterThan(1500);

    await signIn(page, user.email, "Yeni.Sifre7");
    await expectPath(page, "/dashboard");
  });

  it("sends an unknown or missing rowid to the sign-in screen", async () => {
    const page = await browser.newPage();
    await page.goto("/account/reset-password?rowid=gecersiz-kod");
    await expectPath(page, "/account/login");
    await page.goto("/account/reset-password");
    await expectPath(page, "/account/login");
  });

  it("validates the new password fields", async () => {
    const user = newUser();
    await registerByApi(user);
    const page = await browser.newPage();
    await page.request.post(`/api/account/recover-password?email=${encodeURIComponent(user.email)}`);
    const mail = await waitForMail(mailboxDir(), user.email, (m) => m.text.includes("reset-password"));
    const link = mail.text.match(/https?:\/\/\S+\/account\/reset-password\?rowid=[^\s]+/)![0];
    await page.goto(link);
    await page.getByRole("button", { name: "Şifremi Değiştir" }).click();
    await expect.poll(() => page.getByText("Yeni Şifre (Tekrar) alanı zorunludur.").count()).toBe(1);
    await field(page, "Yeni Şifre").fill("kisa");
    await expect.poll(() => page.getByText("En az 8 karakter giriniz.").count()).toBe(1);
    await field(page, "Yeni Şifre").fill("Cok.Uzun.Bir.Sifre.123");
    await expect.poll(() => page.getByText("En fazla 16 karakter girilebilir.").count()).toBe(1);
    await field(page, "Yeni Şifre").fill("Yeni.Sifre7");
    await field(page, "Yeni Şifre (Tekrar)").fill("Baska.Sifre7");
    await page.getByRole("button", { name: "Şifremi Değiştir" }).click();
    await expect.poll(() => page.getByText("Yeni şifre alanları eşleşmiyor.").count()).toBe(1);
  });
});
