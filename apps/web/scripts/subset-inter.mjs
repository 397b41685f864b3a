// Writes src/app/fonts/inter.css and the two cuts of Inter it declares, so Turkish text downloads
// about 22 kB of font instead of fontsource's 47 kB latin file (and its 85 kB latin-ext one):
// - inter-core-wght-normal.woff2: ASCII (U+0000-007E), the Turkish letters of Latin-1 (Ç ç Ö ö Ü ü Â â Î î Û û), the
//   no-break space, ©, ·, – and — (the dashboard's), … and • (a password field's mask), from fontsource's latin file;
// - inter-turkish-wght-normal.woff2: Ğ ğ İ ı Ş ş and ₺, from its latin-ext file.
// Both keep the weight axis from 400 to 900 (nothing in the panel is lighter: Mantine's and our
// weights are 400-800) and the layout features a browser applies by default, plus tabular figures
// (Mantine's tabular-nums); the stylistic sets and alternates nobody turns on are dropped.
// inter.css is @fontsource-variable/inter/wght.css with the cuts' characters taken out of its faces'
// ranges, then the cuts: no two faces share a character, because Chromium, laying out text while the
// face it prefers is still loading, starts the next face that lists the same characters too (it
// did: the whole latin file came with the cut). Every other character still comes from fontsource's
// files. Rerun after upgrading the font package:
// `node scripts/subset-inter.mjs && npx biome format --write src/app/fonts/inter.css` (the web test
// `web-font.test.ts` fails until then).
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import subsetFont from "subset-font";

const require = createRequire(import.meta.url);
// From U+0000, as fontsource's latin face: a text's line breaks and tabs are in its range too, and a
// page with a character in no cut's range downloads the whole face that has it.
const ASCII = Array.from({ length: 0x7f }, (_, i) => String.fromCodePoint(i)).join("");

/** The features browsers apply without being asked (CSS Fonts 4, §7.1), and `tnum`. */
export const FEATURES = [
  "ccmp",
  "locl",
  "rlig",
  "mark",
  "mkmk",
  "kern",
  "liga",
  "clig",
  "calt",
  "rvrn",
  "tnum",
];
export const WEIGHTS = { min: 400, max: 900 };

/** Each cut: the characters it holds (its @font-face's unicode-range), its source and its file. */
export const CUTS = {
  core: {
    text: `${ASCII}\u00a0©·ÇçÖöÜüÂâÎîÛû–—•…`,
    source: require.resolve("@fontsource-variable/inter/files/inter-latin-wght-normal.woff2"),
    target: fileURLToPath(new URL("../src/app/fonts/inter-core-wght-normal.woff2", import.meta.url)),
  },
  turkish: {
    text: "ĞğİıŞş₺",
    source: require.resolve("@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2"),
    target: fileURLToPath(new URL("../src/app/fonts/inter-turkish-wght-normal.woff2", import.meta.url)),
  },
};

/** One cut, made from the installed font package. */
export async function subsetInter(cut) {
  const { text, source } = CUTS[cut];
  return subsetFont(await readFile(source), text, {
    targetFormat: "woff2",
    keepFeatures: FEATURES,
    variationAxes: { wght: WEIGHTS },
  });
}

const FONTSOURCE_CSS = require.resolve("@fontsource-variable/inter/wght.css");
export const CSS_TARGET = fileURLToPath(new URL("../src/app/fonts/inter.css", import.meta.url));

const hex = (code) => code.toString(16).toUpperCase().padStart(4, "0");
/** `U+0000-00FF,U+0131` → its code points. */
export function codePoints(range) {
  return range.split(",").flatMap((part) => {
    const [from, to] = part.trim().replace(/^U\+/i, "").split("-");
    const a = Number.parseInt(from, 16);
    const b = Number.parseInt(to ?? from, 16);
    return Array.from({ length: b - a + 1 }, (_, i) => a + i);
  });
}
/** Code points → the shortest `U+…` list. */
function unicodeRange(codes) {
  const sorted = [...new Set(codes)].sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j === i ? `U+${hex(sorted[i])}` : `U+${hex(sorted[i])}-${hex(sorted[j])}`);
    i = j;
  }
  return parts.join(", ");
}

const face = (src, range) => `@font-face {
  font-family: "Inter Variable";
  font-style: normal;
  font-display: swap;
  font-weight: 100 900;
  src: url(${src}) format("woff2-variations");
  unicode-range: ${range};
}
`;

/** The stylesheet: fontsource's faces without the cuts' characters, then the cuts. */
export async function interCss() {
  const cut = new Set(Object.values(CUTS).flatMap(({ text }) => [...text].map((ch) => ch.codePointAt(0))));
  const faces = [];
  for (const [, file, range] of (await readFile(FONTSOURCE_CSS, "utf8")).matchAll(
    /url\(\.\/files\/([^)]+)\)[^}]*unicode-range:\s*([^;]+);/g,
  )) {
    const left = codePoints(range).filter((code) => !cut.has(code));
    faces.push(face(`@fontsource-variable/inter/files/${file}`, unicodeRange(left)));
  }
  for (const name of Object.keys(CUTS)) {
    const { text } = CUTS[name];
    faces.push(
      face(`./inter-${name}-wght-normal.woff2`, unicodeRange([...text].map((ch) => ch.codePointAt(0)))),
    );
  }
  return `/* Written by scripts/subset-inter.mjs from @fontsource-variable/inter/wght.css: do not edit. */\n${faces.join("\n")}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await writeFile(CSS_TARGET, await interCss());
  for (const cut of Object.keys(CUTS)) {
    const font = await subsetInter(cut);
    await writeFile(CUTS[cut].target, font);
    console.log(`${CUTS[cut].target}: ${font.length} bytes`);
  }
}
