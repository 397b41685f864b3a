/**
 * Netsis runtime rules: what the DLL's models cannot say. TBLSTOKPH keeps, beside one running-total row
 * per item and depot, a row with DEPO_KODU 0 that holds the item's total over all depots: public code
 * that runs against live Netsis databases reads that row as "the stock" (`WHERE DEPO_KODU = 0`) and joins
 * it beside the per-depot row (`S.DEPO_KODU = R.DEPO_KODU` and `S2.DEPO_KODU = 0`). A stock read per depot
 * that does not exclude it reports a depot "0" holding everything again.
 */

import type { AST } from "node-sql-parser";
import { sqlParser } from "../../sdk/sql-parser";
import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RecordedRequest } from "../../testing/recorder";
import type { RuntimeRule } from "../../testing/runtime-rules";
import { netsisRoute } from "./requests";

type Node = {
  type?: string;
  operator?: string;
  left?: Node;
  right?: Node;
  column?: unknown;
  value?: unknown;
};

const isDepot = (n: Node | undefined) =>
  n?.type === "column_ref" && String(n.column).toUpperCase().replace(/^.*\./, "") === "DEPO_KODU";
const numberOf = (n: Node | undefined): number | undefined =>
  n?.type === "number" ? Number(n.value) : n?.type === "single_quote_string" ? Number(n.value) : undefined;

/** True when a conjunct of the WHERE keeps DEPO_KODU 0 out (`<> 0`, `> 0`, `= n`, `IN (n, …)` with n ≠ 0). */
function excludesTotalRow(where: Node | undefined): boolean {
  if (where?.type !== "binary_expr") return false;
  if (where.operator === "AND") return excludesTotalRow(where.left) || excludesTotalRow(where.right);
  if (!isDepot(where.left)) return false;
  const op = where.operator;
  if (op === "<>" || op === "!=" || op === ">") return numberOf(where.right) === 0;
  if (op === "=") return numberOf(where.right) !== undefined && numberOf(where.right) !== 0;
  if (op === "IN" && where.right?.type === "expr_list" && Array.isArray(where.right.value)) {
    const values = (where.right.value as Node[]).map(numberOf);
    return values.length > 0 && values.every((v) => v !== undefined && v !== 0);
  }
  return false;
}

/** The TSql of a `Queries` request, when it is one. */
function tsqlOf(r: RecordedRequest): string | undefined {
  if (r.method !== "POST" || netsisRoute(r.path) !== "/api/v2/Queries/") return undefined;
  const body = r.body as { TSql?: unknown } | undefined;
  return typeof body?.TSql === "string" ? body.TSql : undefined;
}

/** The API version the connector speaks (issue 32: a test fails once its vendor's support has ended). */
export const NETSIS_VERSION_PIN: ApiVersionPin = {
  system: "netsis",
  api: "Logo NetOpenX REST",
  version: "api/v2",
  endOfSupport: null,
  noDateReason:
    "Logo publishes no end-of-support date for NetOpenX REST v2; the service runs on the customer's own server",
  source: "gvardal/NetOpenX@7786984e Rest.Library/Dll/NetOpenX.Rest.Client.dll (routes api/v2/…)",
};

/** The sides of the `dbtype` disagreement: the vendor DLL sends it; a 3P note saw server 9.0.67.0 crash on it. */
export type NetsisTokenSide = "dll" | "server-9.0.67";

export const NETSIS_RULES: RuntimeRule[] = [
  {
    id: "netsis.token-without-dbtype",
    kind: "version-dated",
    side: "server-9.0.67",
    since: "NetOpenX REST 9.0.67.0",
    description:
      "NetOpenX REST server 9.0.67.0 fails a token request that carries dbtype; the vendor's own client sends it (JNVTTipi).",
    sources: [
      {
        kind: "public-code",
        ref: "mcicekci/NetsisRestOrnekleri Program.cs (../shared/partner-apis/erps.md §3b)",
        says: "the dbtype form field is left out: sending it crashed server version 9.0.67.0",
      },
      {
        kind: "official-sdk",
        ref: "gvardal/NetOpenX@7786984e Rest.Library/Dll/NetOpenX.Rest.Client.dll (JLogin.DbType, token form)",
        says: "the vendor's client puts dbtype (a JNVTTipi number) into the token form",
      },
    ],
    check(r) {
      if (r.method !== "POST" || r.path !== "/api/v2/token") return [];
      const form = r.body as Record<string, unknown> | undefined;
      return form && "dbtype" in form
        ? ["the token form carries dbtype, which server 9.0.67.0 fails on"]
        : [];
    },
  },
  {
    id: "netsis.stock-total-row",
    kind: "value-set",
    description:
      "A per-depot stock read of TBLSTOKPH must keep out the DEPO_KODU 0 row, which is the item's total over all depots, not a depot.",
    sources: [
      {
        kind: "public-code",
        ref: "public code id 23282026631 (NetTransfer.Netsis NetsisQuery.GetMalzemeStokQuery)",
        says: "the item's stock is read as TOP_GIRIS_MIK − TOP_CIKIS_MIK FROM TBLSTOKPH WHERE DEPO_KODU = '0'",
      },
      {
        kind: "public-code",
        ref: "public code id 6935866559 (Netsis work-order material check)",
        says: "joins TBLSTOKPH twice: S.DEPO_KODU = R.DEPO_KODU for the depot and S2.DEPO_KODU = 0 for the all-depot total",
      },
      {
        kind: "public-code",
        ref: "public code id 7206369947 (Netsis report SQL)",
        says: "ST.SUBE_KODU = 1 AND ST.DEPO_KODU = 0 as the branch's stock total",
      },
    ],
    check(r) {
      const sql = tsqlOf(r);
      if (!sql || !/TBLSTOKPH/i.test(sql)) return [];
      let ast: AST | AST[];
      try {
        ast = sqlParser("TransactSQL").astify(sql, { database: "TransactSQL" });
      } catch {
        return []; // the schema judge reports SQL that does not parse
      }
      const select = (Array.isArray(ast) ? ast[0] : ast) as { where?: Node } | undefined;
      return excludesTotalRow(select?.where)
        ? []
        : ["TSql reads TBLSTOKPH without keeping out DEPO_KODU 0 (the all-depot total row)"];
    },
  },
];
