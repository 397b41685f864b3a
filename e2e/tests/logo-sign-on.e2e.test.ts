import { type IsbasiEmulator, startIsbasiEmulator } from "@ep/connectors";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectPath, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
let emu: IsbasiEmulator;
const stamp = Date.now();

beforeAll(async () => {
  emu = await startIsbasiEmulator({
    port: inject("logoIsbasiPort"),
    apiKey: `e2e-isbasi-key-${stamp}`,
    username: `isbasi.${stamp}@example.com.tr`,
    password: "E2e-Isbasi-Parola1",
    tenantId: `4719c95b-216c-49eb-bf62-${String(stamp).slice(-12).padStart(12, "0")}`,
    productCount: 5,
    rateLimit: false,
  });
});

afterAll(async () => {
  await emu?.close();
});

/** Where Logo İşbaşı sends its user: our landing with the tenant's API key. */
const landing = (key = emu.credentials.apiKey) =>
  `/logo-auth-redirect?${new URLSearchParams({ apikey: key })}`;

async function signOn(password = emu.credentials.password, key?: string) {
  const page = await browser.newPage();
  await page.goto(landing(key));
  const form = page.getByTestId("logo-sign-on");
  await form.getByLabel("Logo Is Basi e-posta adresi").fill(emu.credentials.username);
  await form.getByLabel("Logo Is Basi şifresi").fill(password);
  await form.getByRole("button", { name: "Giriş yap" }).click();
  return page;
}

describe("Logo İşbaşı sign-on (/logo-auth-redirect)", () => {
  it("a user arriving from Logo with its key is registered and lands signed in on /dashboard", async () => {
    const page = await signOn();
    await expectPath(page, "/dashboard");
    await waitForShell(page);
    await expect.poll(() => page.getByTestId("welcome-title").textContent()).toContain(`isbasi.${stamp}`);
    expect(browser.pageErrors).toEqual([]);
  });

  it("the same tenant again signs in to the same company", async () => {
    const page = await signOn();
    await expectPath(page, "/dashboard");
    await waitForShell(page);
    await expect.poll(() => page.getByTestId("welcome-title").textContent()).toContain(`isbasi.${stamp}`);
  });

  it("a wrong password ends on the sign-in screen with the user_not_found dialog", async () => {
    const page = await signOn("yanlis-parola");
    await expectPath(page, "/account/login");
    const url = new URL(page.url());
    expect(url.searchParams.get("request_type")).toBe("logo");
    expect(url.searchParams.get("error_code")).toBe("user_not_found");
    await expect.poll(() => page.getByRole("dialog").textContent()).toContain("Kullanıcı kaydı bulunamadı.");
  });

  it("arriving without a key is a system error dialog", async () => {
    const page = await browser.newPage();
    await page.goto("/logo-auth-redirect");
    await expectPath(page, "/account/login");
    expect(new URL(page.url()).searchParams.get("error_code")).toBe("system_exception");
    await expect.poll(() => page.getByTestId("install-error-body").textContent()).toContain("destek");
  });
});
