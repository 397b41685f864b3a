import { describe, expect, it } from "vitest";
import { signInAsDemo, waitForShell } from "../support/app.ts";
import { type AxeFinding, axeViolations } from "../support/axe.ts";
import { settled, useBrowser } from "../support/browser.ts";
import { COMPANY_ROUTES, PUBLIC_ROUTES } from "../support/routes.ts";

/** Issue 40 item 10: WCAG 2.1 AA on every route, checked by axe-core inside the browser. */
const browser = useBrowser();

const readable = (findings: AxeFinding[]) =>
  findings.map((f) => `${f.route} ${f.rule} (${f.impact}): ${f.help} → ${f.targets.join(" | ")}`);

describe("accessibility (axe-core, WCAG 2.1 AA)", () => {
  it("finds no violation on the public routes", async () => {
    const page = await browser.newPage();
    const findings: AxeFinding[] = [];
    for (const route of PUBLIC_ROUTES) {
      await page.goto(route);
      await page.locator("main, form, h1").first().waitFor();
      await settled(page);
      findings.push(...(await axeViolations(page, route)));
    }
    expect(readable(findings)).toEqual([]);
  }, 180_000);

  it("finds no violation on any signed-in route, at 1440 and 390 px", async () => {
    const page = await browser.newPage();
    await signInAsDemo(page);
    const findings: AxeFinding[] = [];
    for (const width of [1440, 390]) {
      await page.setViewportSize({ width, height: width > 600 ? 900 : 844 });
      for (const route of COMPANY_ROUTES) {
        await page.goto(route);
        await waitForShell(page);
        await page.locator("#main-content").waitFor();
        await settled(page);
        findings.push(...(await axeViolations(page, `${route} @${width}`)));
      }
    }
    expect(readable(findings)).toEqual([]);
  }, 580_000);
});
