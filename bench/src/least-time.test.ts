import { describe, expect, it } from "vitest";
import { earliestCalls, jointLeastTime, leastTime } from "./least-time.ts";

const shop = { requests: 50, windowMs: 10_000 };
const erp = { requests: 10, windowMs: 1_000 };

describe("least time under sliding windows", () => {
  it("counts the burst: 134 calls at 50 / 10 s take 20 s, the 51st call waits for the 1st to leave", () => {
    expect(leastTime(134, shop)).toBe(20);
    expect(leastTime(50, shop)).toBe(0);
    expect(earliestCalls([0, 0, 5], { requests: 2, windowMs: 10 })).toEqual([0, 0, 10]);
    expect(earliestCalls([0, 0, 30], { requests: 2, windowMs: 10 })).toEqual([0, 0, 30]);
  });

  it("is the shop's floor when the ERP could read everything at once", () => {
    const instantErp = { requests: 1_000_000, windowMs: 1_000 };
    expect(jointLeastTime([{ reads: 139, writes: 134 }], instantErp, shop)).toBe(20);
  });

  it("makes the shop's late calls wait for the records of the early ones (50,000 SKUs)", () => {
    // Stock 56 reads feed 50 writes, prices 20 reads feed 17. The 17th write needs 20 reads (10 at
    // once, 10 a second later): it goes at 1 s, so the 67th, ten seconds after it, at 11 s.
    const flows = [
      { reads: 56, writes: 50 },
      { reads: 20, writes: 17 },
    ];
    expect(jointLeastTime(flows, erp, shop)).toBe(11);
    // Never below either system's own floor.
    expect(jointLeastTime(flows, erp, shop)).toBeGreaterThanOrEqual(leastTime(67, shop));
    expect(jointLeastTime(flows, erp, shop)).toBeGreaterThanOrEqual(leastTime(76, erp));
  });

  it("adds the answer times: a read's records arrive after its answer, the last write is answered too", () => {
    const flows = [{ reads: 20, writes: 60 }];
    // 60 writes from 20 reads: 3 per read. The 10th write needs 4 reads (answered at 0.15 s); the
    // 60th goes 10 s after it and is answered 0.3 s later.
    expect(jointLeastTime(flows, erp, shop, { erpAnswerMs: 150, shopAnswerMs: 300 })).toBeCloseTo(10.45, 6);
  });
});
