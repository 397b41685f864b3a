/**
 * Nebim V3's connection check data (issue 36): the company's procedures answer rows, and the connector
 * reads around a missing column (a row without ItemCode is skipped, a missing VatRate reads as 0), so
 * the check's answer rule holds each procedure's rows to the columns the connection form asks it to
 * return (descriptor.ts, "Ürün / Stok / Fiyat yordamı"): a column gone is a difference, not a quiet 0.
 */

import type { CheckAnswer, ConnectorCheckSpec } from "../sdk/check";

type Row = Record<string, unknown>;
const isRow = (v: unknown): v is Row => typeof v === "object" && v !== null && !Array.isArray(v);

/** Per procedure: the columns it must return (a row carrying any of them is that procedure's). */
const PROC_COLUMNS: Record<string, string[]> = {
  products: ["ItemCode", "ItemDescription", "VatRate", "UnitOfMeasureCode1"],
  stock: ["ItemCode", "WarehouseCode", "Qty"],
  prices: ["ItemCode", "PriceGroupCode", "Price", "CurrencyCode"],
};
/** Columns only that procedure's rows carry (how an answer is told apart). */
const MARKS: Record<string, string[]> = {
  products: ["ItemDescription", "UnitOfMeasureCode1", "VatRate"],
  stock: ["WarehouseCode", "Qty"],
  prices: ["PriceGroupCode", "Price"],
};

function rowsOf(body: unknown): Row[] {
  if (Array.isArray(body)) return body.filter(isRow);
  return [];
}

export const nebimCheck: ConnectorCheckSpec = {
  system: "nebim",
  // The session: Connect (twice: the cookieless redirect, then the login) and GetUserInfo.
  setupCalls: 3,
  ruleTexts: { "nebim.answer.procedure-columns": "connectionCheck.rule.nebimProcedureColumns" },
  answerRules: [
    {
      id: "nebim.answer.procedure-columns",
      kind: "facet",
      description: "each procedure's rows carry the columns the connection form asks the procedure to return",
      sources: [
        {
          kind: "vendor-doc",
          ref: "packages/connectors/src/nebim/descriptor.ts (productsProc / stockProc / pricesProc help)",
          says: "the procedures return ItemCode, ItemDescription, VatRate …; WarehouseCode, Qty; PriceGroupCode, Price …",
        },
      ],
      check(a: CheckAnswer) {
        const rows = rowsOf(a.body);
        const first = rows[0];
        if (!first) return [];
        const out: string[] = [];
        for (const [proc, marks] of Object.entries(MARKS)) {
          if (!marks.some((m) => m in first)) continue;
          const missing = PROC_COLUMNS[proc]!.filter((c) => rows.some((r) => !(c in r)));
          if (missing.length) out.push(`${proc} rows lack ${missing.join(", ")}`);
        }
        return out;
      },
    },
  ],
};
