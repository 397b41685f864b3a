/**
 * Long synchronous work (an export's rows, a file's rows) in slices, the event loop answering other
 * calls between them: 2,000 workbook rows written in one go held it 250-360 ms on a loaded box, and
 * every other company's call waited that long (issue 33, items 3 and 4; bench/README.md, "Fairness").
 */
import { setImmediate as nextTurn } from "node:timers/promises";

/** Items handled between two turns of the event loop. */
export const ITEMS_PER_TURN = 100;

/** Calls `each` on every item in order, letting the event loop turn after every `perTurn` items. */
export async function inTurns<T>(
  items: Iterable<T>,
  each: (item: T, index: number) => void,
  perTurn = ITEMS_PER_TURN,
): Promise<void> {
  let index = 0;
  for (const item of items) {
    each(item, index);
    index++;
    if (index % perTurn === 0) await nextTurn();
  }
}
