import { describe, expect, it } from "vitest";
import { inTurns } from "../src/platform/turns.ts";

describe("work in turns of the event loop", () => {
  it("handles every item in order and lets the loop turn after each slice", async () => {
    const seen: number[] = [];
    // How many items were handled when each turn of the loop came round.
    const turns: number[] = [];
    let ticking = true;
    const tick = () => {
      turns.push(seen.length);
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    await inTurns(
      Array.from({ length: 250 }, (_, i) => i),
      (item, index) => {
        expect(item).toBe(index);
        seen.push(item);
      },
      100,
    );
    ticking = false;
    expect(seen).toHaveLength(250);
    // The loop came round between the slices, never in the middle of one.
    expect(turns).toContain(100);
    expect(turns).toContain(200);
    expect(turns.every((n) => n % 100 === 0 || n === 250)).toBe(true);
  });
});
