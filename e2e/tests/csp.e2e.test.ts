import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  expectPath,
  field,
  newUser,
  registerByApi,
  signIn,
  signInSupport,
  waitForShell,
} from "../support/app.ts";
import { baseUrl, useBrowser } from "../support/browser.ts";
import { COMPANY_ROUTES, PUBLIC_ROUTES, SUPPORT_ROUTES } from "../support/routes.ts";

/**
 * Issue 11, defect 5: the panel works under its Content-Security-Policy. Every route is visited
 * (public, company and support screens, the captcha widget solving in its worker) and the browser
 * must report no CSP violation, neither as an event nor on the console.
 */
const browser = useBrowser();

/** A page that records every CSP violation it sees, from the DOM event and from the console. */
async function watchedPage(): Promise<{ page: Page; violations: string[] }> {
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on("console", (msg) => {
    if (/Content[- ]Security[- ]Policy/i.test(msg.text())) violations.push(`console: ${msg.text()}`);
  });
  await page.exposeFunction("__reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      const report = (window as unknown as { __reportCspViolation: (t: string) => void })
        .__reportCspViolation;
      report(`${location.pathname}: ${e.effectiveDirective} blocked ${e.blockedURI || "inline"}`);
    });
  });
  return { page, violations };
}

/** Opens a route and lets it settle: its requests answered and its lazy parts loaded. */
async function visit(page: Page, path: string) {
  await page.goto(path);
  await page.waitForLoadState("load");
  // The long-poll keeps the network busy, so "network idle" never comes: wait for the app's own content.
  await page.locator("#root div:visible").first().waitFor();
  await page.waitForTimeout(800);
}

async function tokenOf(email: string, password: string): Promise<string> {
  const res = await fetch(`${baseUrl()}/api/account/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  const body = (await res.json()) as { data: { token: string } };
  return body.data.token;
}

describe("the panel under its Content-Security-Policy", () => {
  it("sends the policy with the page", async () => {
    const res = await fetch(`${baseUrl()}/account/login`);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it("shows every public screen, and solves the captcha in its worker, without a violation", async () => {
    const { page, violations } = await watchedPage();
    for (const path of PUBLIC_ROUTES) await visit(page, path);

    // Wrong passwords until the server asks for the captcha; the widget then solves it in a Worker.
    const user = newUser();
    await registerByApi(user);
    await page.goto("/account/login");
    await field(page, "E-Posta").fill(user.email);
    const widget = page.locator("altcha-widget");
    for (let i = 1; i <= 6 && !(await widget.isVisible()); i++) {
      await field(page, "Şifre").fill(`Yanlis.Sifre${i}`);
      await page.getByRole("button", { name: "Giriş Yap" }).click();
      await page.getByTestId("login-error").waitFor();
    }
    await widget.waitFor();
    await field(page, "Şifre").fill(user.password);
    await page.getByRole("button", { name: "Giriş Yap" }).click();
    await expectPath(page, "/dashboard");
    await waitForShell(page);

    expect(violations).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  }, 150_000);

  it("shows every company screen without a violation", async () => {
    const config = (await (await fetch(`${baseUrl()}/api/config`)).json()) as {
      data: { demo: { email: string; password: string } | null };
    };
    const demo = config.data.demo;
    if (!demo) throw new Error("the e2e server runs with DEMO=1");
    const token = await tokenOf(demo.email, demo.password);
    const form = new FormData();
    const categories = (await (
      await fetch(`${baseUrl()}/api/Ticket/categories`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as { data: Array<{ id: number }> };
    form.set("categoryId", String(categories.data[0]?.id));
    form.set("subject", "CSP denemesi");
    form.set("message", "Ekranların politikaya uyduğunu denetliyoruz.");
    const ticket = (await (
      await fetch(`${baseUrl()}/api/Ticket/my-company`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
    ).json()) as { data: { id: number } };

    const { page, violations } = await watchedPage();
    await signIn(page, demo.email, demo.password);
    for (const path of [...COMPANY_ROUTES, `/tickets/${ticket.data.id}`]) await visit(page, path);
    expect(violations).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  }, 150_000);

  it("shows every support screen without a violation", async () => {
    const { page, violations } = await watchedPage();
    await signInSupport(page);
    for (const path of SUPPORT_ROUTES) await visit(page, path);
    expect(violations).toEqual([]);
    expect(browser.pageErrors).toEqual([]);
  }, 150_000);
});
