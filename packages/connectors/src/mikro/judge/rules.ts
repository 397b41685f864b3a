/**
 * Mikro runtime rules: what a stock read of STOK_HAREKETLERI_OZET must carry beyond its columns' names.
 * Several rows per (code, depot) hold value differences, not quantities (movement kinds 9 and 15), and
 * returns sit in their own columns: a read that sums the normal columns only, or counts the
 * value-difference rows, is wrong on every card they touch. Which return column adds and which subtracts
 * is where sources disagree (../stock.ts); that both must be read, they agree.
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuntimeRule } from "../../testing/runtime-rules";

/** The SELECT of a SqlVeriOkuV2 request (beside the Mikro block), when it is one. */
function sqlOf(r: RecordedRequest): string | undefined {
  if (r.method !== "POST" || !/\/SqlVeriOkuV2$/i.test(r.path)) return undefined;
  const q = (r.body as { SQLSorgu?: unknown } | undefined)?.SQLSorgu;
  return typeof q === "string" ? q : undefined;
}

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const MIKRO_VERSION_PIN: ApiVersionPin = {
  system: "mikro",
  api: "MikroAPI (Jump / Fly)",
  version: "V2 methods on MikroAPI V17",
  endOfSupport: null,
  noDateReason:
    "Mikro publishes no end-of-support dates; V17 removed ten V2 list methods without a date, which the connector detects at run time",
  source: "../shared/partner-apis/erps.md §4 (cetpa, V16/V17 Postman diff)",
};

export const MIKRO_RULES: RuntimeRule[] = [
  {
    id: "mikro.stock-summary-quantity",
    kind: "value-set",
    description:
      "A quantity read of STOK_HAREKETLERI_OZET reads both return columns (sho_GirisIade, sho_CikisIade) and keeps out the value-difference kinds 9 and 15.",
    sources: [
      {
        kind: "public-code",
        ref: "public code id 9078443267 (B2B stock balance over STOK_HAREKETLERI_OZET)",
        says: "balance = (sho_GirisNormal + sho_GirisIade) − (sho_CikisNormal + sho_CikisIade) where sho_HareketCins is not 6, 9 or 15",
      },
      {
        kind: "public-code",
        ref: "public code id 55390858776 (stock anomaly scan over STOK_HAREKETLERI_OZET)",
        says: "quantity = sho_GirisNormal + sho_CikisIade − sho_CikisNormal − sho_GirisIade, summed per depot and code",
      },
      {
        kind: "public-code",
        ref: "orcncetin-sys/cetpa (../shared/partner-apis/erps.md §4, corrections 2026-11-23)",
        says: "several summary rows per (code, depot) must be summed; several sources exclude movement kinds 9 and 15",
      },
    ],
    check(r) {
      const sql = sqlOf(r);
      if (!sql || !/STOK_HAREKETLERI_OZET/i.test(sql) || !/sho_GirisNormal/i.test(sql)) return [];
      const out: string[] = [];
      for (const col of ["sho_GirisIade", "sho_CikisIade"])
        if (!new RegExp(`\\b${col}\\b`, "i").test(sql)) out.push(`the stock read leaves out ${col}`);
      if (!/sho_HareketCins\s+NOT\s+IN\s*\(\s*9\s*,\s*15\s*\)/i.test(sql))
        out.push("the stock read counts the value-difference kinds 9 and 15");
      return out;
    },
  },
];
