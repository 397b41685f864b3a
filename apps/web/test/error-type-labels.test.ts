import { ENGINE_FAILURE_TYPES, PERMANENT_FAILURE_REASONS, TRANSIENT_FAILURE_REASONS } from "@ep/contracts";
import { describe, expect, it } from "vitest";
import de from "../src/features/integration/locales/de.json";
import en from "../src/features/integration/locales/en.json";
import es from "../src/features/integration/locales/es.json";
import fr from "../src/features/integration/locales/fr.json";
import ja from "../src/features/integration/locales/ja.json";
import tr from "../src/features/integration/locales/tr.json";
import zh from "../src/features/integration/locales/zh.json";

const CATALOGUES = { tr, en, de, es, fr, ja, zh } as const;
const EVERY_TYPE = [...TRANSIENT_FAILURE_REASONS, ...PERMANENT_FAILURE_REASONS, ...ENGINE_FAILURE_TYPES];

describe("error-type labels", () => {
  // A type without a label reads 'Diğer hata' in the failed-task list: the user loses the reason.
  it.each(Object.entries(CATALOGUES))(
    "%s labels every failure type the connectors and the engine record",
    (_, catalogue) => {
      const labels = catalogue.errorTypes as Record<string, string>;
      const missing = EVERY_TYPE.filter((type) => !labels[type]);
      expect(missing).toEqual([]);
    },
  );

  it("names a binding conflict in Turkish", () => {
    expect(tr.errorTypes.binding_conflict).toBe("Eşleştirme çakışması");
  });
});
