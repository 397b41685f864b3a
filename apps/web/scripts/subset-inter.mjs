// Writes src/app/fonts/inter-turkish-wght-normal.woff2: the Turkish letters outside Latin-1 (Ğ ğ İ ı
// Ş ş) and ₺, cut from @fontsource-variable/inter's latin-ext file with all its weights. The sign-in
// page's Turkish text then needs a few kB instead of the whole latin-ext file (85 kB, every European
// alphabet). Same glyphs, same font: nothing looks different. Rerun after upgrading the font package:
// `node scripts/subset-inter.mjs` (the web test `inter-turkish.test.ts` fails until then).
import { readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import subsetFont from "subset-font";

/** What the @font-face in src/app/fonts/inter-turkish.css declares as its unicode-range. */
export const TURKISH_LETTERS = "ĞğİıŞş₺";
export const SOURCE = createRequire(import.meta.url).resolve(
  "@fontsource-variable/inter/files/inter-latin-ext-wght-normal.woff2",
);
export const TARGET = fileURLToPath(
  new URL("../src/app/fonts/inter-turkish-wght-normal.woff2", import.meta.url),
);

export async function subsetInter() {
  return subsetFont(await readFile(SOURCE), TURKISH_LETTERS, { targetFormat: "woff2" });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const font = await subsetInter();
  await writeFile(TARGET, font);
  console.log(`${TARGET}: ${font.length} bytes`);
}
