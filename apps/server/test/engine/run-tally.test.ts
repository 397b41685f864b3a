import { RunTally } from "@ep/engine";
import { describe, expect, it } from "vitest";

describe("a run's tally of moved records", () => {
  it("keeps only the moved records that have an open failed task, so a large run holds no key per record", () => {
    const tally = new RunTally(() => {}, new Set(["SKU-2", "ORDER-9"]));
    tally.written(Array.from({ length: 10_000 }, (_, i) => `SKU-${i}`));
    tally.moved(["ORDER-8", "ORDER-9"]);
    expect(tally.counts.written).toBe(10_000);
    expect(tally.movedKeys).toEqual(["SKU-2", "ORDER-9"]);
  });

  it("keeps none when the job has no open failed task, and every one when it is not told which are open", () => {
    const none = new RunTally(() => {}, new Set());
    none.written(["A", "B"]);
    expect(none.movedKeys).toEqual([]);
    expect(none.counts.written).toBe(2);
    const all = new RunTally();
    all.written(["A", "B"]);
    all.moved(["C"]);
    expect(all.movedKeys).toEqual(["A", "B", "C"]);
  });
});
