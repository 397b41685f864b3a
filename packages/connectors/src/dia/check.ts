/**
 * DİA's connection check data (issue 36): every call costs kontör, so the check says its count first —
 * one login (free), one `_listele` page per read (two for prices, the category list once) — and its answer rule: a `_listele` answer carries
 * the columns the request selected (doc "servis türü listeleme": `selectedcolumns` picks the row's keys).
 */

import type { CheckAnswer, ConnectorCheckSpec } from "../sdk/check";
import { DOC_LIST } from "./judge/shapes";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** The columns a `_listele` request selected, or none. */
function selected(request: unknown): string[] {
  if (!isObj(request)) return [];
  const service = Object.values(request)[0];
  const cols = isObj(service) && isObj(service.params) ? service.params.selectedcolumns : undefined;
  return Array.isArray(cols) ? cols.filter((c): c is string => typeof c === "string") : [];
}

export const diaCheck: ConnectorCheckSpec = {
  system: "dia",
  setupCalls: 1,
  // A price page reads its price groups first (their currency and VAT flag); the category list (kept)
  // serves products and categories.
  calls: { categories: 0, prices: 2 },
  shared: [{ reads: ["products", "categories"], calls: 1 }],
  verified: "packages/connectors/src/dia/VERIFIED.md",
  ruleTexts: { "dia.answer.selected-columns": "connectionCheck.rule.diaSelectedColumns" },
  answerRules: [
    {
      id: "dia.answer.selected-columns",
      kind: "facet",
      description: "every row of a _listele answer carries the columns its request selected",
      sources: [
        { kind: "vendor-doc", ref: DOC_LIST, says: "selectedcolumns chooses the columns of the rows" },
      ],
      check(a: CheckAnswer) {
        const cols = selected(a.request);
        const rows = isObj(a.body) && Array.isArray(a.body.result) ? a.body.result : [];
        const first = rows.find(isObj);
        if (!first || cols.length === 0) return [];
        const missing = cols.filter((c) => !(c in first));
        return missing.length ? [`rows lack selected columns: ${missing.join(", ")}`] : [];
      },
    },
  ],
};
