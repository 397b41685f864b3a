import { randomBytes } from "node:crypto";
import { type Browser, type BrowserContext, chromium, type Page, type Request } from "playwright-core";
import { afterAll, afterEach, beforeAll, inject } from "vitest";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export const baseUrl = (): string => inject("baseUrl");
export const mailboxDir = (): string => inject("mailboxDir");

/**
 * A client address of its own for each browser context, sent as X-Forwarded-For (the e2e server
 * trusts loopback as its proxy). Sign-in failures are counted per address too, so without this
 * one test's wrong passwords would demand a captcha of every later test's sign-in.
 */
const clientAddress = (): string => `10.${[...randomBytes(3)].join(".")}`;

/**
 * The system Chromium, launched once per test file (Playwright gives it a fresh temporary
 * profile); every test gets a new context, so no cookie or storage leaks between tests.
 */
export class BrowserSession {
  private contexts: BrowserContext[] = [];
  /** Uncaught page errors; a test can assert there were none. */
  readonly pageErrors: string[] = [];

  private constructor(private readonly browser: Browser) {}

  static async launch(): Promise<BrowserSession> {
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: CHROMIUM_ARGS,
      headless: true,
    });
    return new BrowserSession(browser);
  }

  async newPage(): Promise<Page> {
    const context = await this.browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 1366, height: 860 },
      locale: "tr-TR",
      timezoneId: "Europe/Istanbul",
      extraHTTPHeaders: { "x-forwarded-for": clientAddress() },
    });
    this.contexts.push(context);
    const page = await context.newPage();
    trackRequests(page);
    page.setDefaultTimeout(30_000);
    page.on("pageerror", (error) => this.pageErrors.push(error.message));
    return page;
  }

  /** Closes the contexts of the finished test. */
  async reset(): Promise<void> {
    for (const context of this.contexts.splice(0)) await context.close();
  }

  async close(): Promise<void> {
    await this.reset();
    await this.browser.close();
  }
}

/** The server holds this request open until a run moves: it is never "under way" in `settled`. */
const LONG_POLL = "/api/JobHistory/do-long-polling";
const underWay = new WeakMap<Page, Set<Request>>();

function trackRequests(page: Page): void {
  const open = new Set<Request>();
  underWay.set(page, open);
  page.on("request", (request) => {
    if (!request.url().includes(LONG_POLL)) open.add(request);
  });
  page.on("requestfinished", (request) => open.delete(request));
  page.on("requestfailed", (request) => open.delete(request));
}

/**
 * Waits for a screen's first data: no request of the page under way (its long poll aside, which is
 * why Playwright's 'networkidle' never comes) for `quietMs`, then two frames painted with what came.
 * Instead of a fixed pause per screen, which was long where the box was quick and short where it
 * was slow.
 */
export async function settled(page: Page, quietMs = 300, timeoutMs = 20_000): Promise<void> {
  const open = underWay.get(page);
  if (!open) throw new Error("settled: the page was not made by BrowserSession.newPage");
  const until = Date.now() + timeoutMs;
  let quietSince = Date.now();
  for (;;) {
    if (open.size > 0) quietSince = Date.now();
    else if (Date.now() - quietSince >= quietMs) break;
    if (Date.now() > until)
      throw new Error(`still loading after ${timeoutMs} ms: ${[...open].map((r) => r.url()).join(", ")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/**
 * The browser of one test file: launched before its tests, a fresh context for each test, closed
 * after. `const browser = useBrowser();` at the top of the file, then `await browser.newPage()`.
 */
export function useBrowser() {
  let session: BrowserSession | undefined;
  beforeAll(async () => {
    session = await BrowserSession.launch();
  });
  afterEach(async () => {
    await session?.reset();
  });
  afterAll(async () => {
    await session?.close();
  });
  const current = (): BrowserSession => {
    if (!session) throw new Error("the browser starts in beforeAll; call newPage() inside a test");
    return session;
  };
  return {
    newPage: () => current().newPage(),
    get pageErrors(): readonly string[] {
      return current().pageErrors;
    },
  };
}
