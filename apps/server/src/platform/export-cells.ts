/**
 * Formula injection in exports (OWASP "CSV injection"): a spreadsheet reads a cell starting with
 * `=`, `+`, `-`, `@`, a tab or a carriage return as a formula, so a customer named `=HYPERLINK(…)`
 * in a shop order would run in the merchant's Excel. Every CSV and xlsx export passes its text cells
 * through here: such a text gets a leading `'` and stays text. Numbers stay numbers, and a text that
 * is only a number (`-12,50`) is no formula and stays as it is.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

export function safeCell<T>(value: T): T | string {
  if (typeof value !== "string" || !FORMULA_START.test(value) || PLAIN_NUMBER.test(value)) return value;
  return `'${value}`;
}

/** Every text cell of a row made safe (see `safeCell`). */
export function safeRow<T extends Record<string, unknown>>(row: T): { [K in keyof T]: T[K] | string } {
  return Object.fromEntries(Object.entries(row).map(([key, value]) => [key, safeCell(value)])) as {
    [K in keyof T]: T[K] | string;
  };
}
