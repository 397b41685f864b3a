import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { signIn, waitForShell } from "../support/app.ts";
import { useBrowser } from "../support/browser.ts";

const browser = useBrowser();
const SHOTS = new URL("../test-results/", import.meta.url).pathname;

async function demoUser(page: Page) {
  const config = (await (await page.request.get("/api/config")).json()) as {
    data: { demo: { email: string; password: string } | null };
  };
  if (!config.data.demo) throw new Error("the e2e server runs with the demo company");
  return config.data.demo;
}

type Box = { top: number; height: number };

async function boxes(page: Page, testIds: string[]): Promise<Box[]> {
  const out: Box[] = [];
  for (const id of testIds) {
    const box = await page.getByTestId(id).first().boundingBox();
    if (!box) throw new Error(`${id} is not on screen`);
    out.push({ top: Math.round(box.y), height: Math.round(box.height) });
  }
  return out;
}

/** Cards sharing a top edge share a height: a row of the grid lines up. */
function rowsLineUp(cards: Box[]): boolean {
  const rows = new Map<number, number[]>();
  for (const card of cards) rows.set(card.top, [...(rows.get(card.top) ?? []), card.height]);
  return [...rows.values()].every((heights) => heights.every((h) => Math.abs(h - heights[0]!) <= 1));
}

const GRID_CARDS = [
  "einvoice-card",
  "licence-card",
  "failed-jobs-card",
  "announcements-card",
  "company-jobs-widget",
  "task-notifications-widget",
];

describe("dashboard grid (issue 12: polish)", () => {
  it.each([1440, 1280])("lines its cards up at %i px, rows of equal height", async (width) => {
    const page = await browser.newPage();
    await page.setViewportSize({ width, height: 900 });
    const demo = await demoUser(page);
    await signIn(page, demo.email, demo.password);
    await waitForShell(page);
    await page.getByTestId("freshness-card").waitFor();
    const grid = await boxes(page, GRID_CARDS);
    // 1440 px: three cards a row (the e-invoice card first); 1280 px: two a row.
    expect(new Set(grid.map((b) => b.top)).size).toBe(width >= 1408 ? 2 : 3);
    // Each row fills the grid's width: no row ends in a hole.
    const rights = await page.evaluate((ids) => {
      const byTop = new Map<number, number>();
      for (const id of ids) {
        const r = document.querySelector(`[data-testid="${id}"]`)?.getBoundingClientRect();
        if (r) byTop.set(Math.round(r.top), Math.max(byTop.get(Math.round(r.top)) ?? 0, Math.round(r.right)));
      }
      return [...byTop.values()];
    }, GRID_CARDS);
    expect(Math.max(...rights) - Math.min(...rights)).toBeLessThanOrEqual(1);
    // The freshness table fits its card.
    const freshness = page.getByTestId("freshness-card");
    expect(await freshness.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    expect(rowsLineUp(grid)).toBe(true);
    const reports = await page.getByTestId("integration-report").all();
    const reportBoxes = await Promise.all(reports.map((r) => r.boundingBox()));
    const tops = reportBoxes.map((b) => Math.round(b?.y ?? -1));
    expect(
      rowsLineUp(reportBoxes.map((b, i) => ({ top: tops[i]!, height: Math.round(b?.height ?? 0) }))),
    ).toBe(true);
    // Nothing wider than the window.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${SHOTS}dashboard-${width}.png`, fullPage: true });
    expect(browser.pageErrors).toEqual([]);
  });

  it("shows the cards' outlines, not a spinner, while the dashboard loads", async () => {
    const page = await browser.newPage();
    const demo = await demoUser(page);
    await signIn(page, demo.email, demo.password);
    // Hold the dashboard's answer back, so the loading state stays on screen.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/Dashboard", async (route) => {
      await held;
      await route.continue();
    });
    await page.reload();
    await page.getByTestId("skeleton").first().waitFor();
    expect(await page.getByTestId("skeleton").count()).toBeGreaterThan(0);
    release();
    await page.getByTestId("freshness-card").waitFor();
    // The sales chart's own query may still be on its way: its outline goes when it answers.
    await expect.poll(() => page.getByTestId("skeleton").count(), { timeout: 15_000 }).toBe(0);
  });
});
