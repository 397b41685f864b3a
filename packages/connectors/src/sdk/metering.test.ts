import { describe, expect, it } from "vitest";
import {
  billableCalls,
  crossedWarning,
  daysLeftInMonth,
  type MeteringPolicy,
  quotaDecision,
} from "./metering";
import { turkishDate, turkishMonth } from "./turkish-time";

const quota: MeteringPolicy = { kind: "quota", monthlyQuota: { read: 3000, write: 7000 }, warnAt: 0.8 };

describe("metering", () => {
  it("counts days and months in Istanbul time", () => {
    // 2026-11-30 22:30 UTC is already 1 December in Istanbul.
    const t = Date.UTC(2026, 10, 30, 22, 30);
    expect(turkishDate(t)).toBe("2026-12-01");
    expect(turkishMonth(t)).toBe("2026-12");
    expect(daysLeftInMonth(t)).toBe(31);
    expect(daysLeftInMonth(Date.UTC(2026, 10, 30, 12))).toBe(1);
    expect(daysLeftInMonth(Date.UTC(2026, 1, 1, 12))).toBe(28);
  });

  it("lets a run start only within today's share of what is left", () => {
    const base = {
      policy: quota,
      beforeToday: { read: 0, write: 0 },
      runNeeds: { read: 5, write: 0 },
      daysLeft: 30,
    };
    expect(quotaDecision({ ...base, today: { read: 0, write: 0 } }).allowed).toBe(true);
    expect(quotaDecision({ ...base, today: { read: 95, write: 0 } }).allowed).toBe(true);
    const over = quotaDecision({ ...base, today: { read: 96, write: 0 } });
    expect(over).toMatchObject({ allowed: false, short: "read" });
    expect(over.allowanceToday.read).toBe(100);
  });

  it("never lets a 15-minute schedule spend the month's quota in a week", () => {
    let used = 0;
    for (let day = 0; day < 30; day++) {
      let today = 0;
      for (let run = 0; run < 96; run++) {
        const d = quotaDecision({
          policy: quota,
          beforeToday: { read: used, write: 0 },
          today: { read: today, write: 0 },
          runNeeds: { read: 4, write: 0 },
          daysLeft: 30 - day,
        });
        if (d.allowed) today += 4;
      }
      used += today;
      if (day === 6) expect(used).toBeLessThanOrEqual(3000 * (7 / 30) + 4 * 7);
    }
    expect(used).toBeLessThanOrEqual(3000);
    expect(used).toBeGreaterThan(2800);
  });

  it("warns once when the warning share is crossed", () => {
    expect(crossedWarning(quota, { read: 2390, write: 0 }, { read: 2405, write: 0 })).toEqual(["read"]);
    expect(crossedWarning(quota, { read: 2405, write: 0 }, { read: 2410, write: 0 })).toEqual([]);
    expect(crossedWarning({ kind: "credit" }, { read: 0, write: 0 }, { read: 9e9, write: 0 })).toEqual([]);
  });

  it("leaves free operations out of the billable calls", () => {
    const policy: MeteringPolicy = { kind: "credit", freeOperations: ["login"] };
    expect(billableCalls(policy, "dia", { read: 10, write: 2 }, { "dia:login": 3, "dia:x": 7 })).toEqual({
      read: 7,
      write: 2,
    });
  });
});
