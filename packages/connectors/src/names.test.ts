import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { catalogs, ECOMMERCE_TYPES, ERP_TYPES } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import { listConnectors } from "./registry";

/** The spec's option lines ("- ERP options (value: label): 1 Nebim, 2 Netsis, …") as [value, label]. */
function specList(prefix: string): Array<[number, string]> {
  const spec = readFileSync(join(__dirname, "../../../../shared/spec/panel-spec.md"), "utf8");
  const line = spec.split("\n").find((l) => l.startsWith(`- ${prefix}`));
  if (!line) throw new Error(`no "${prefix}" line in the spec`);
  return line
    .slice(line.search(/:\s*\d/) + 1)
    .replace(/\.\s*$/, "")
    .split(",")
    .map((item) => {
      const m = /^\s*(\d+)\s+(.+?)\s*$/.exec(item);
      if (!m) throw new Error(`unreadable spec item "${item}"`);
      return [Number(m[1]), m[2] as string];
    });
}

/** Other spellings of a system seen in user-facing text; the spec's name is the only one to show. */
const VARIANTS: Record<string, RegExp> = {
  "Logo Is Basi": /İşbaşı|Isbasi|Is Başı/,
  Tsoft: /T-Soft|TSoft/,
  LucaKoza: /Luca Koza/,
};

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (value && typeof value === "object") for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** String literals of a source file, comments left out (a rough but sufficient cut for our sources). */
function literals(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
  return [...code.matchAll(/"((?:[^"\\\n]|\\.)*)"|`((?:[^`\\]|\\.)*)`|'((?:[^'\\\n]|\\.)*)'/g)].map(
    (m) => m[1] ?? m[2] ?? m[3] ?? "",
  );
}

describe("one name per system", () => {
  const erp = specList("ERP options");
  const shop = specList("E-commerce options");

  it("reads both lists of the spec", () => {
    expect(erp).toHaveLength(23);
    expect(shop).toHaveLength(7);
  });

  it("names every connector as the spec's list does", () => {
    const names = (kind: "erp" | "shop") =>
      listConnectors(kind)
        .map((d) => [d.type, d.name] as [number, string])
        .sort((a, b) => a[0] - b[0]);
    expect(names("erp")).toEqual([...erp].sort((a, b) => a[0] - b[0]));
    expect(names("shop")).toEqual([...shop].sort((a, b) => a[0] - b[0]));
  });

  it("gives the panel's registration lists the spec's names", () => {
    expect(ERP_TYPES.map((t) => [t.value, t.label])).toEqual(erp);
    expect(ECOMMERCE_TYPES.map((t) => [t.value, t.label])).toEqual(shop);
  });

  it("uses no other spelling of a system's name in what a merchant reads", () => {
    const texts: Array<[string, string]> = [];
    for (const d of listConnectors()) {
      for (const s of strings([d.credentials, d.unsupported, d.notes, d.notice])) texts.push([d.name, s]);
    }
    for (const s of strings(catalogs.tr)) texts.push(["tr", s]);
    const web = readFileSync(join(__dirname, "../../../apps/web/src/i18n/locales/tr.json"), "utf8");
    for (const s of strings(JSON.parse(web))) texts.push(["web tr.json", s]);
    const isbasi = join(__dirname, "logo-isbasi");
    for (const f of readdirSync(isbasi).filter((n) => n.endsWith(".ts") && !n.includes(".test."))) {
      for (const s of literals(readFileSync(join(isbasi, f), "utf8"))) texts.push([`logo-isbasi/${f}`, s]);
    }
    const wrong = texts.flatMap(([where, s]) =>
      Object.entries(VARIANTS)
        .filter(([, re]) => re.test(s))
        .map(([name]) => `${where}: "${s}" (use "${name}")`),
    );
    expect(wrong).toEqual([]);
  });
});
