import { type IdeasoftEmulator, startIdeasoftEmulator } from "@ep/connectors";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { expectPath, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
let emu: IdeasoftEmulator;

beforeAll(async () => {
  emu = await startIdeasoftEmulator({
    port: inject("ideasoftPort"),
    clientId: "e2e-ideasoft-client",
    clientSecret: "e2e-ideasoft-secret-0123456789",
    storeDomain: `e2e-${Date.now()}.myideasoft.com`,
    owner: { email: `ideasoft.${Date.now()}@example.com.tr`, firstname: "Elif", surname: "Aydın" },
    productCount: 10,
    rateLimit: false,
    // A cold browser on a busy machine can take longer than Ideasoft's ~30 s to load the landing.
    codeTtlMs: 300_000,
  });
});

afterAll(async () => {
  await emu?.close();
});

/**
 * The merchant's browser starts the install on our side (the state is bound to it by a cookie), and
 * Ideasoft's consent page approves at once and redirects to our landing with a fresh code.
 */
async function landingUrl(page: Page): Promise<string> {
  const started = await page.request.get(
    `/api/partner-install/ideasoft/authorize?${new URLSearchParams({ domain: emu.credentials.storeDomain })}`,
  );
  const { url } = ((await started.json()) as { data: { url: string } }).data;
  const res = await fetch(url, { redirect: "manual" });
  return res.headers.get("location") ?? "";
}

describe("Ideasoft app install landing", () => {
  it("a merchant coming from Ideasoft lands signed in on /dashboard, the shop connected", async () => {
    const page = await browser.newPage();
    await page.goto(await landingUrl(page));
    await expectPath(page, "/dashboard");
    await waitForShell(page);
    await expect.poll(() => page.getByTestId("welcome-title").textContent()).toContain("Elif Aydın");
    expect(browser.pageErrors).toEqual([]);
  });

  it("the same store again signs in to the same company", async () => {
    const page = await browser.newPage();
    await page.goto(await landingUrl(page));
    await expectPath(page, "/dashboard");
    await waitForShell(page);
    await expect.poll(() => page.getByTestId("welcome-title").textContent()).toContain("Elif Aydın");
  });

  it("a refused code ends on the sign-in screen with the install error dialog", async () => {
    const page = await browser.newPage();
    const landing = new URL(await landingUrl(page));
    landing.searchParams.set("code", "uydurma");
    await page.goto(landing.toString());
    await expectPath(page, "/account/login");
    expect(new URL(page.url()).searchParams.get("error_code")).toBe("code_refused");
    await expect
      .poll(() => page.getByTestId("install-error-body").textContent())
      .toContain("Ideasoft onay kodunu kabul etmedi");
  });

  it("a link with someone else's code and state ends on the state dialog, nothing installed", async () => {
    const attacker = await browser.newPage();
    const link = await landingUrl(attacker);
    const victim = await browser.newPage();
    await victim.goto(link);
    await expectPath(victim, "/account/login");
    expect(new URL(victim.url()).searchParams.get("error_code")).toBe("state_mismatch");
    await expect
      .poll(() => victim.getByRole("dialog").textContent())
      .toContain("Kurulum bu tarayıcıda başlatılmadı");
  });

  it("an unknown package shows its own dialog title", async () => {
    emu.store.installedApplication = { applicationId: 1, applicationName: "Başka Uygulama" };
    emu.store.owner = { email: `yeni.${Date.now()}@example.com.tr`, firstname: "Can", surname: "Öztürk" };
    const page = await browser.newPage();
    const url = new URL(await landingUrl(page));
    url.searchParams.set("domain", `baska-${Date.now()}.myideasoft.com`);
    await page.goto(url.toString());
    await expectPath(page, "/account/login");
    expect(new URL(page.url()).searchParams.get("error_code")).toBe("undefined_package_type_request");
    await expect
      .poll(() => page.getByRole("dialog").textContent())
      .toContain("Satın alınan paket tespit edilemedi.");
  });
});
