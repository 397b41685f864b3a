import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script, no declarations
import { CSS_TARGET, CUTS, codePoints, interCss, subsetInter } from "../scripts/subset-inter.mjs";

const require = createRequire(import.meta.url);
const fontsource = readFileSync(require.resolve("@fontsource-variable/inter/wght.css"), "utf8");
const css = readFileSync(CSS_TARGET, "utf8");
const main = readFileSync(join(dirname(require.resolve("../package.json")), "src/main.tsx"), "utf8");

/** Each @font-face of a stylesheet: its file and its code points. */
const faces = (sheet: string): Array<{ file: string; codes: number[] }> =>
  [...sheet.matchAll(/url\(([^)]+)\)[^}]*unicode-range:\s*([^;]+);/g)].map((m) => ({
    file: (m[1] ?? "").replace(/.*\//, ""),
    codes: codePoints(m[2] ?? ""),
  }));

describe("the bundled web font", () => {
  it("covers every Turkish letter and the lira sign, and never blocks the first paint", () => {
    const covered = new Set(faces(css).flatMap((f) => f.codes));
    const missing = [..."ÇçĞğİıÖöŞşÜüÂâÎîÛû₺"].filter((ch) => !covered.has(ch.codePointAt(0) ?? 0));
    expect(missing).toEqual([]);
    expect(css.match(/font-display: swap/g)?.length).toBe(faces(css).length);
    // Loaded from our own bundle (woff2 files of the font package and the cuts), not from a font CDN.
    expect(css).not.toMatch(/https?:\/\//);
    expect(main).toContain('import "./app/fonts/inter.css"');
  });

  it("covers what fontsource covers, each character in one face, ASCII and Turkish from the cuts", async () => {
    const ours = faces(css);
    expect(new Set(ours.flatMap((f) => f.codes))).toEqual(new Set(faces(fontsource).flatMap((f) => f.codes)));
    // No other face lists a cut's character: one still loading would make Chromium fetch it too.
    const cutCodes = new Set(
      ours
        .filter((f) => f.file.startsWith("inter-core") || f.file.startsWith("inter-turkish"))
        .flatMap((f) => f.codes),
    );
    const elsewhere = ours.filter((f) => !/^inter-(core|turkish)-/.test(f.file)).flatMap((f) => f.codes);
    expect(elsewhere.filter((code) => cutCodes.has(code))).toEqual([]);
    for (const [cut, file] of [
      ["core", "inter-core-wght-normal.woff2"],
      ["turkish", "inter-turkish-wght-normal.woff2"],
    ] as const) {
      const face = ours.find((f) => f.file === file);
      expect(face?.codes.sort((a, b) => a - b)).toEqual(
        [...CUTS[cut].text].map((ch) => ch.codePointAt(0) ?? 0).sort((a, b) => a - b),
      );
      // The committed file is what the script makes from the installed font package.
      const made = Buffer.from(await subsetInter(cut));
      expect(made.equals(readFileSync(CUTS[cut].target))).toBe(true);
    }
    // Each cut comes from the fontsource file that held its characters.
    expect(CUTS.core.source).toMatch(/inter-latin-wght-normal\.woff2$/);
    expect(CUTS.turkish.source).toMatch(/inter-latin-ext-wght-normal\.woff2$/);
    // The committed stylesheet is what the script writes (Biome wraps its long lines).
    const spaced = (text: string) => text.replace(/\s+/g, " ");
    expect(spaced(css)).toBe(spaced(await interCss()));
  });
});
