/**
 * Formula injection: every CSV and xlsx export makes a text cell that a spreadsheet would read as a
 * formula (=, +, -, @, tab, CR first) plain text with a leading apostrophe, in one shared place.
 */
import { parse as parseCsv } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FileExchange } from "../src/modules/file-exchange/service.ts";
import { safeCell, safeRow } from "../src/platform/export-cells.ts";
import { registerAndLogin, startTestApp, type TestApp } from "./harness.ts";

let t: TestApp;
let companyId: number;

beforeAll(async () => {
  t = await startTestApp({ CAPTCHA: "off" });
  companyId = (await registerAndLogin(t.app)).account.company.id as number;
}, 60_000);
afterAll(async () => t?.close());

const HOSTILE = ['=HYPERLINK("http://x","a")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "\t=1", "\r=1"];

describe("formula-looking cells in exports", () => {
  it("the shared helper prefixes them and leaves everything else", () => {
    for (const v of HOSTILE) expect(safeCell(v)).toBe(`'${v}`);
    for (const v of ["Ayşe Yılmaz", "-12,50", "+90", "42", "", "a=b"]) expect(safeCell(v)).toBe(v);
    expect(safeCell(-5)).toBe(-5);
    expect(safeCell(null)).toBeNull();
    expect(safeRow({ a: "=1", b: 2 })).toEqual({ a: "'=1", b: 2 });
  });

  it("the orders CSV carries a hostile customer name as text", async () => {
    const files = new FileExchange(t.ctx);
    await files.addOrder(companyId, "SIP-1", [
      { orderNo: "SIP-1", customer: HOSTILE[0]!, sku: "@SKU", quantity: 2, price: -3.5 },
    ]);
    const file = await files.closeOrders(companyId, t.ctx.clock.now());
    const csv = Buffer.from(file!.content!, "base64")
      .toString("utf8")
      .replace(/^\uFEFF/, "");
    const [line] = parseCsv(csv, { columns: true, delimiter: ";" }) as Array<Record<string, string>>;
    expect(line).toMatchObject({ customer: `'${HOSTILE[0]}`, sku: "'@SKU", quantity: "2", price: "-3.5" });
  });
});
