import { catalogs, SUPPORTED_LANGUAGES } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import de from "../src/i18n/locales/de.json";
import en from "../src/i18n/locales/en.json";
import es from "../src/i18n/locales/es.json";
import fr from "../src/i18n/locales/fr.json";
import ja from "../src/i18n/locales/ja.json";
import tr from "../src/i18n/locales/tr.json";
import zh from "../src/i18n/locales/zh.json";

type Tree = { [key: string]: string | Tree };

/** Every leaf as `path → text`. */
function leaves(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [p, v] of leaves(value, path)) out.set(p, v);
  }
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

const webLocales: Record<string, Tree> = { tr, en, de, es, fr, ja, zh };

function checkSameShape(name: string, sets: Record<string, Tree>) {
  const reference = leaves(sets.tr!);
  describe(name, () => {
    it("covers all seven languages", () => {
      expect(Object.keys(sets).sort()).toEqual([...SUPPORTED_LANGUAGES].sort());
    });

    for (const [lang, tree] of Object.entries(sets)) {
      it(`${lang} has exactly the Turkish keys`, () => {
        const keys = leaves(tree);
        expect([...keys.keys()].sort()).toEqual([...reference.keys()].sort());
      });

      it(`${lang} has no empty text and keeps every {{placeholder}}`, () => {
        for (const [key, text] of leaves(tree)) {
          expect(text.trim(), `${lang}:${key}`).not.toBe("");
          expect(placeholders(text), `${lang}:${key}`).toEqual(placeholders(reference.get(key) ?? ""));
        }
      });
    }
  });
}

checkSameShape("web locales (src/i18n/locales)", webLocales);

// Each feature's own locales (src/features/<feature>/locales/<lang>.json) follow the same rules.
const featureFiles = import.meta.glob<{ default: Tree }>("../src/features/*/locales/*.json", { eager: true });
const byFeature = new Map<string, Record<string, Tree>>();
for (const [path, mod] of Object.entries(featureFiles)) {
  const [, , , feature = "", , file = ""] = path.split("/");
  const sets = byFeature.get(feature) ?? {};
  sets[file.replace(/\.json$/, "")] = mod.default;
  byFeature.set(feature, sets);
}
for (const [feature, sets] of byFeature)
  checkSameShape(`feature locales (src/features/${feature}/locales)`, sets);
checkSameShape("shared contracts catalogues", catalogs as unknown as Record<string, Tree>);

describe("translations are real", () => {
  it("the web locales differ from Turkish", () => {
    const trLeaves = leaves(tr);
    for (const [lang, tree] of Object.entries(webLocales)) {
      if (lang === "tr") continue;
      const same = [...leaves(tree)].filter(([k, v]) => trLeaves.get(k) === v).length;
      // Brand names, codes and language names may stay the same; most texts must not.
      expect(same / trLeaves.size, lang).toBeLessThan(0.15);
    }
  });

  it("the contracts catalogues are not English placeholders", () => {
    const enLeaves = leaves(catalogs.en as unknown as Tree);
    // A text Turkish in every language on purpose (the KVKK export, a record under Turkish law) is no
    // English placeholder: only texts English has of its own count.
    const trLeaves = leaves(catalogs.tr as unknown as Tree);
    const english = [...enLeaves].filter(([k, v]) => trLeaves.get(k) !== v);
    const englishKeys = new Map(english);
    for (const lang of ["de", "es", "fr", "ja", "zh"] as const) {
      const same = [...leaves(catalogs[lang] as unknown as Tree)].filter(
        ([k, v]) => englishKeys.get(k) === v,
      ).length;
      expect(same / englishKeys.size, lang).toBeLessThan(0.1);
    }
  });
});
