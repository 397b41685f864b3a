import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const css = readFileSync(require.resolve("@fontsource-variable/inter/wght.css"), "utf8");
const main = readFileSync(join(dirname(require.resolve("../package.json")), "src/main.tsx"), "utf8");

/** [from, to] code point ranges of every @font-face of the bundled font. */
function coveredRanges(): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const match of css.matchAll(/unicode-range:\s*([^;]+);/g)) {
    for (const part of (match[1] ?? "").split(",")) {
      const [from, to] = part.trim().replace(/^U\+/i, "").split("-");
      ranges.push([Number.parseInt(from ?? "", 16), Number.parseInt(to ?? from ?? "", 16)]);
    }
  }
  return ranges;
}

describe("the bundled web font", () => {
  it("covers every Turkish letter and the lira sign, and never blocks the first paint", () => {
    const ranges = coveredRanges();
    const missing = [..."ÇçĞğİıÖöŞşÜüÂâÎîÛû₺"].filter((ch) => {
      const code = ch.codePointAt(0) ?? 0;
      return !ranges.some(([from, to]) => code >= from && code <= to);
    });
    expect(missing).toEqual([]);
    expect(css).toContain("font-display: swap");
    // Loaded from our own bundle (woff2 files next to the CSS), not from a font CDN.
    expect(css).not.toMatch(/https?:\/\//);
    expect(main).toContain('import "@fontsource-variable/inter/wght.css"');
  });
});
