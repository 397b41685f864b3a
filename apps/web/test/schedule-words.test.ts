import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import tr from "../src/features/integration/locales/tr.json";
import { describeSchedule, intervalMinutes, parseCron } from "../src/features/integration/schedule";

const i18n = i18next.createInstance();
beforeAll(async () => {
  await i18n.init({ lng: "tr", resources: { tr: { translation: { integration: tr } } } });
});
const words = (expression: string) => describeSchedule({ kind: "cron", expression }, i18n.t, "tr");

describe("schedules in words", () => {
  it("says the cron shapes the panel offers in Turkish", () => {
    expect(words("0 9 * * 1-5")).toBe("Hafta içi her gün 09:00");
    expect(words("30 8 * * *")).toBe("Her gün 08:30");
    expect(words("0 9,18 * * *")).toBe("Her gün 09:00 ve 18:00");
    expect(words("0 10 * * 0,6")).toBe("Hafta sonu her gün 10:00");
    expect(words("0 7 * * 1")).toBe("Her Pazartesi 07:00");
    expect(words("0 7 * * 1,3,5")).toBe("Her Pazartesi, Çarşamba ve Cuma 07:00");
    expect(words("0 */2 * * *")).toBe("Her 2 saatte bir");
    expect(words("15 */6 * * *")).toBe("Her 6 saatte bir, saatin 15. dakikasında");
    expect(words("*/15 * * * *")).toBe("Her 15 dakikada bir");
    expect(words("0 3 1 * *")).toBe("Her ayın 1. günü 03:00");
  });

  it("keeps an unusual expression as it is, marked as custom", () => {
    expect(words("0 9 * 1 *")).toBe("Özel zamanlama (cron): 0 9 * 1 *");
    expect(words("0 25 * * *")).toBe("Özel zamanlama (cron): 0 25 * * *");
    expect(parseCron("bozuk")).toBeNull();
  });

  it("says intervals in minutes or hours", () => {
    expect(describeSchedule({ kind: "interval", minutes: 15 }, i18n.t)).toBe("Her 15 dakikada bir");
    expect(describeSchedule({ kind: "interval", minutes: 120 }, i18n.t)).toBe("Her 2 saatte bir");
  });

  it("reads Sunday as 0 or 7", () => {
    expect(parseCron("0 9 * * 7")).toEqual({ kind: "days", days: [0], times: ["09:00"] });
  });
});

describe("the interval a user types", () => {
  it("is refused out of range or fractional, not turned into every minute or a week", () => {
    expect(intervalMinutes(0)).toBeNull();
    expect(intervalMinutes(99_999)).toBeNull();
    expect(intervalMinutes("2,5")).toBeNull();
    expect(intervalMinutes("")).toBeNull();
    expect(intervalMinutes(1)).toBe(1);
    expect(intervalMinutes("10080")).toBe(10_080);
  });
});
