import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script, no declarations
import { SOURCE, subsetInter, TARGET, TURKISH_LETTERS } from "../scripts/subset-inter.mjs";

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

  it("takes Turkish letters from the 3 kB cut of the same font, declared after fontsource's faces", async () => {
    const cut = readFileSync(join(dirname(TARGET), "inter-turkish.css"), "utf8");
    const range = /unicode-range:\s*([^;]+);/.exec(cut)?.[1] ?? "";
    const codes = range.split(",").flatMap((part) => {
      const [from, to] = part.trim().replace(/^U\+/i, "").split("-");
      const a = Number.parseInt(from ?? "", 16);
      const b = Number.parseInt(to ?? from ?? "", 16);
      return Array.from({ length: b - a + 1 }, (_, i) => a + i);
    });
    expect(codes.map((c) => String.fromCodePoint(c)).join("")).toBe(TURKISH_LETTERS);
    // Every one of them is in the latin-ext face it stands in for.
    expect(SOURCE).toMatch(/inter-latin-ext-wght-normal\.woff2$/);
    expect(main.indexOf('import "./app/fonts/inter-turkish.css"')).toBeGreaterThan(
      main.indexOf('import "@fontsource-variable/inter/wght.css"'),
    );
    // The committed file is what the script makes from the installed font package.
    const made = Buffer.from(await subsetInter());
    expect(made.equals(readFileSync(TARGET))).toBe(true);
  });
});
