import { randomBytes, randomUUID } from "node:crypto";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { baseUrl } from "./browser.ts";
import { SUPPORT_ACCOUNT } from "./support-account.ts";

export type TestUser = {
  company_Name: string;
  email: string;
  password: string;
  first_Name: string;
  last_Name: string;
  phone: string;
  erpType: number;
  ecommerceType: number;
};

/** A unique user each call, so tests never collide on the shared server. */
export function newUser(overrides: Partial<TestUser> = {}): TestUser {
  const id = randomUUID().slice(0, 8);
  return {
    company_Name: `Deneme Ticaret ${id}`,
    email: `kullanici.${id}@example.com`,
    password: "Guclu.Sifre1",
    first_Name: "Ayşe",
    last_Name: "Yılmaz",
    phone: "05321234567",
    // Systems with connectors: a system without one opens a support ticket at registration.
    erpType: 9,
    ecommerceType: 1,
    ...overrides,
  };
}

/** Registers through the API (for tests that are not about the registration screen). */
export async function registerByApi(user: TestUser): Promise<void> {
  const res = await fetch(`${baseUrl()}/api/account/register`, {
    method: "POST",
    // An address of its own (the e2e server trusts loopback as its proxy): registrations are
    // throttled per address.
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": `10.${[...randomBytes(3)].join(".")}`,
    },
    body: JSON.stringify(user),
  });
  const body = (await res.json()) as { successful: boolean; message: string };
  if (!res.ok || !body.successful) throw new Error(`register failed: ${res.status} ${body.message}`);
}

/** Fills the registration screen as a newcomer does, picking the systems by their listed names. */
export async function fillRegistration(page: Page, user: TestUser, erp: string, shop: string): Promise<void> {
  await field(page, "Şirket Adı").fill(user.company_Name);
  await field(page, "E-Posta").fill(user.email);
  await field(page, "Şifre").fill(user.password);
  await field(page, "Ad").fill(user.first_Name);
  await field(page, "Soyad").fill(user.last_Name);
  await field(page, "Telefon").fill(user.phone);
  await combo(page, "Muhasebe Programı").click();
  await page.getByRole("option", { name: erp, exact: true }).click();
  await combo(page, "E-Ticaret Yazılımı").click();
  await page.getByRole("option", { name: shop, exact: true }).click();
}

/** Signs in through the sign-in screen and waits for the dashboard (splash gone). */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto("/account/login");
  await field(page, "E-Posta").fill(email);
  await field(page, "Şifre").fill(password);
  await page.getByRole("button", { name: "Giriş Yap" }).click();
  await page.waitForURL("**/dashboard");
  await waitForShell(page);
}

/** Signs the support account in through the same sign-in screen; it lands in the console. */
export async function signInSupport(page: Page): Promise<void> {
  await page.goto("/account/login");
  await field(page, "E-Posta").fill(SUPPORT_ACCOUNT.email);
  await field(page, "Şifre").fill(SUPPORT_ACCOUNT.password);
  await page.getByRole("button", { name: "Giriş Yap" }).click();
  await expectPath(page, "/support");
}

/** The signed-in shell is visible once the 1 s splash is gone. */
export async function waitForShell(page: Page): Promise<void> {
  await page.getByTestId("user-menu").waitFor();
  await page.getByTestId("splash").waitFor({ state: "detached", timeout: 10_000 });
}

export function pathOf(page: Page): string {
  return new URL(page.url()).pathname;
}

export async function expectPath(page: Page, path: string, timeout?: number): Promise<void> {
  await page.waitForURL((url) => url.pathname === path, { waitUntil: "commit", timeout });
  expect(pathOf(page)).toBe(path);
}

/** A text, e-mail, tel or password input by its exact accessible name (its label). */
export function field(page: Page | Locator, name: string) {
  return page.getByRole("textbox", { name, exact: true });
}

/** A Mantine Select by its label. */
export function combo(page: Page, name: string) {
  return page.getByRole("combobox", { name, exact: true });
}

/** The demo company's user: the e2e server runs with DEMO=1, which offers it in /api/config. */
export async function demoUser(page: Page): Promise<{ email: string; password: string }> {
  const config = (await (await page.request.get("/api/config")).json()) as {
    data: { demo: { email: string; password: string } | null };
  };
  if (!config.data.demo) throw new Error("the e2e server runs with the demo company");
  return config.data.demo;
}

/** Signs `page` in as the demo company. */
export async function signInAsDemo(page: Page): Promise<void> {
  const demo = await demoUser(page);
  await signIn(page, demo.email, demo.password);
}

/**
 * "Deneme sistemlerine bağlan" from a compact button (dashboard, first steps) in `scope`: its dialog,
 * with the marketplace sandboxes named in `channels` ticked, confirmed.
 */
export async function connectSandboxes(scope: Page | Locator, channels: string[] = []): Promise<void> {
  const page = "goto" in scope ? scope : scope.page();
  await scope.getByRole("button", { name: "Deneme sistemlerine bağlan" }).first().click();
  const dialog = page.getByRole("dialog");
  for (const name of channels) await dialog.getByRole("checkbox", { name, exact: true }).check();
  await dialog.getByTestId("sandbox-confirm").click();
}

/**
 * A new company (registered by API) signed in on a new page, with its sandboxes connected through the
 * dashboard's button (and the marketplaces named in `channels` as sandbox channels); `timeout` is how
 * long the connection may take.
 */
export async function signInWithSandboxes(
  browser: { newPage(): Promise<Page> },
  systems: Partial<TestUser>,
  timeout = 30_000,
  channels: string[] = [],
): Promise<{ user: TestUser; page: Page }> {
  const user = newUser(systems);
  await registerByApi(user);
  const page = await browser.newPage();
  await signIn(page, user.email, user.password);
  await connectSandboxes(page, channels);
  await expect
    .poll(() => page.getByText("Deneme sistemlerine bağlandınız.", { exact: false }).count(), { timeout })
    .toBe(1);
  return { user, page };
}
