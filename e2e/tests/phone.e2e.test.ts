import { mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { signInAsDemo, waitForShell } from "../support/app.ts";
import { settled, useBrowser } from "../support/browser.ts";
import { clippedElements } from "../support/phone.ts";
import { COMPANY_ROUTES, PUBLIC_ROUTES } from "../support/routes.ts";

/** Issue 40 item 5: every screen usable on a 390 px phone, tables as cards, nothing cut off. */
const browser = useBrowser();
const SHOTS = new URL("../test-results/", import.meta.url).pathname;
mkdirSync(SHOTS, { recursive: true });

const shotName = (route: string) => route.replace(/[/?=&]+/g, "-").replace(/^-|-$/g, "") || "root";

describe("phone-first screens at 390 px", () => {
  it("cuts off no element's content on any public route", async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const clipped: string[] = [];
    for (const route of PUBLIC_ROUTES) {
      await page.goto(route);
      await page.locator("main, form, h1").first().waitFor();
      await settled(page);
      for (const c of await clippedElements(page)) clipped.push(`${route}: ${c}`);
    }
    expect(clipped).toEqual([]);
  }, 120_000);

  it("cuts off no element's content on any signed-in route; tables read as cards", async () => {
    const page = await browser.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await signInAsDemo(page);
    const clipped: string[] = [];
    for (const route of COMPANY_ROUTES) {
      await page.goto(route);
      await waitForShell(page);
      await page.locator("#main-content").waitFor();
      await settled(page);
      for (const c of await clippedElements(page)) clipped.push(`${route}: ${c}`);
      if (process.env.PHONE_SHOTS) {
        await page.screenshot({ path: `${SHOTS}phone-390-${shotName(route)}.png`, fullPage: true });
      }
    }
    expect(clipped).toEqual([]);

    // A table below 600 px: no header row on screen, each row a card labelling every value.
    await page.goto("/dashboard");
    await waitForShell(page);
    const row = page.getByTestId("freshness-row").first();
    await row.waitFor();
    const cells = await row
      .locator("td")
      .evaluateAll((tds) =>
        tds.map((td) => ({ label: td.getAttribute("data-label"), display: getComputedStyle(td).display })),
      );
    expect(cells.map((c) => c.label)).toEqual(["Görev Adı", "Son başarılı aktarım", "Bekleyen"]);
    expect(cells.every((c) => c.display === "flex")).toBe(true);
    const box = await row.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390).toBe(true);
  }, 400_000);
});
