import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const require = createRequire(import.meta.url);
/**
 * axe-core's browser build from node_modules (nothing fetched). It is evaluated through the
 * DevTools protocol, not added as a script tag: the panel's CSP (script-src 'self') rightly refuses
 * an inline script, and the test must not weaken the CSP it runs under.
 */
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

export type AxeFinding = {
  route: string;
  rule: string;
  impact: string | null;
  targets: string[];
  help: string;
};

/** Runs axe-core's WCAG 2.0/2.1 A and AA rules on the page as it is now; one finding per rule. */
export async function axeViolations(page: Page, route: string): Promise<AxeFinding[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    })) as {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[]; html: string }[];
      }[];
    };
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(" ")} ${n.html.slice(0, 160)}`),
    }));
  });
  return violations.map((v) => ({ route, ...v }));
}
