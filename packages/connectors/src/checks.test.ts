import { catalogs, type Language } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import { CHECK_SPECS } from "./checks";

const textOf = (lang: Language, key: string): unknown =>
  key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], catalogs[lang]);

describe("the connector-specific rules of the connection check", () => {
  it("each has a description of its own in all seven catalogues, never the raw rule id", () => {
    const rules = CHECK_SPECS.flatMap((spec) => (spec.answerRules ?? []).map((r) => ({ spec, id: r.id })));
    expect(rules.length).toBeGreaterThan(0);
    for (const { spec, id } of rules) {
      const key = spec.ruleTexts?.[id];
      expect(key, id).toMatch(/^connectionCheck\.rule\./);
      const en = textOf("en", key!);
      for (const lang of Object.keys(catalogs) as Language[]) {
        const text = textOf(lang, key!);
        expect(typeof text, `${lang} ${key}`).toBe("string");
        expect(text as string, `${lang} ${key}`).not.toContain(id);
        expect(text as string).toContain("{{jobs}}");
        if (lang !== "en") expect(text, `${lang} ${key}`).not.toBe(en);
      }
    }
  });
});
