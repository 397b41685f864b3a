/**
 * Wolvox's runtime rules: what the dictionary's column types cannot say. The contract test applies them
 * to every statement the connector sends; the emulator (a real Firebird database with Wolvox's counter
 * table and an `SP_GEN_ID` of the same signature) proves the consequence of breaking them: Wolvox's own
 * next document collides with ours (`insertOwnOrder`).
 */

import type { ApiVersionPin } from "../../sdk/version-pin";
import type { RuntimeRule } from "../../testing/runtime-rules";
import type { RecordedStatement } from "../emulator/database";
import { TABLE_COUNTERS, WRITABLE_TABLES } from "./schema";

/** No API version: the connector speaks to the database of Wolvox 8/9, whose vendor publishes no dates. */
export const WOLVOX_VERSION_PIN: ApiVersionPin = {
  system: "wolvox",
  api: "AKINSOFT Wolvox 9 veritabanı (Firebird 2.5/3)",
  version: "Wolvox 9 schema (DEMOWOLVOX dictionary, 2026-07-19)",
  endOfSupport: null,
  noDateReason:
    "AKINSOFT publishes no end-of-support dates for Wolvox database schemas; the schema is read on the customer's own server",
  source: "yunuscan/Wolvox-Ai wolvox-docs/02-tablo-sozlugu.md @ 73cc653a",
};

/** The block variable bound to the statement parameter whose value is `value` (`P_GEN_SIP … = @p_gen_sip`). */
function variableFor(s: RecordedStatement, value: string): string | undefined {
  const param = Object.entries(s.params ?? {}).find(([, v]) => v === value)?.[0];
  if (!param) return undefined;
  const m = new RegExp(`([A-Za-z_][A-Za-z0-9_]*)\\s+VARCHAR\\s*\\(\\d+\\)\\s*=\\s*@${param}\\b`, "i").exec(
    s.text,
  );
  return m?.[1]?.toUpperCase();
}

export const generatorAdvancedRule: RuntimeRule<RecordedStatement> = {
  id: "wolvox.generator-advanced",
  kind: "write-side-effect",
  description:
    "A write into SIPARIS / SIPARISHR takes its key above the table's GEN_IDT counter (<TABLE>_GEN) and advances that counter in the same statement (one transaction).",
  sources: [
    {
      kind: "public-code",
      ref: "emirthab/Akinsoft-Wolvox-Fast-Stock-JAVA@956fea289299fd1ff334e8dd7d3ec0ec3b7f925e:src/SQLquery.java, src/SQLoperations.java",
      says: "inserts STOKHR at MAX(BLKODU)+1 and runs UPDATE GEN_IDT SET GEN_VALUE = <key> WHERE GEN_NAME = 'STOKHR_GEN'",
    },
    {
      kind: "public-code",
      ref: "yunuscan/Wolvox-Ai@73cc653a:wolvox-docs/05-generator-ve-trigger-envanteri.md, 02-tablo-sozlugu.md (GEN_IDT)",
      says: "Wolvox's own triggers take keys with SP_GEN_ID(name, 1) → GEN_VALUE; GEN_IDT(BLKODU, GEN_NAME, GEN_VALUE); no Firebird generator exists for SIPARIS / SIPARISHR",
    },
  ],
  check: (s) => {
    const problems: string[] = [];
    for (const table of WRITABLE_TABLES) {
      if (!new RegExp(`INSERT\\s+INTO\\s+${table}\\b`, "i").test(s.text)) continue;
      const counter = TABLE_COUNTERS[table];
      const v = variableFor(s, counter);
      if (!v) {
        problems.push(`INSERT into ${table} without its counter ${counter} as a parameter`);
        continue;
      }
      const read = new RegExp(`FROM\\s+GEN_IDT\\s+(\\w+)\\s+WHERE\\s+\\1\\.GEN_NAME\\s*=\\s*:${v}\\b`, "i");
      const advance = new RegExp(
        `UPDATE\\s+GEN_IDT\\s+(\\w+)\\s+SET\\s+\\1\\.GEN_VALUE\\s*=\\s*:\\w+\\s+WHERE\\s+\\1\\.GEN_NAME\\s*=\\s*:${v}\\b`,
        "i",
      );
      if (!read.test(s.text)) problems.push(`${table} key not taken above its counter ${counter}`);
      if (!advance.test(s.text))
        problems.push(`${table} written without advancing ${counter} in the same transaction`);
    }
    return problems;
  },
};

export const pendingOrderValuesRule: RuntimeRule<RecordedStatement> = {
  id: "wolvox.pending-order-values",
  kind: "value-set",
  description:
    "An order is written as a received domestic order awaiting confirmation: SIPARIS_TURU 1, SIPARIS_DURUMU 1 (Beklemede), never a ledger movement.",
  sources: [
    {
      kind: "vendor-doc",
      ref: "Wolvox9 SDK Doküman v1.02.01, summarised in public notes (code corpus id 69346198989)",
      says: "SIPARIS_DURUMU 1 Beklemede … 5 Onaylandı; SIPARIS_TURU 1 yurt içi alınan",
    },
    {
      kind: "public-code",
      ref: "yunuscan/Wolvox-Ai@73cc653a:wolvox-docs/02-tablo-sozlugu.md (SIPARIS, SIPARIS_DURUM_TANIM)",
      says: "SIPARIS_TURU / SIPARIS_DURUMU are SMALLINT codes; status names live in SIPARIS_DURUM_TANIM",
    },
  ],
  check: (s) => {
    const m = /INSERT\s+INTO\s+SIPARIS\s*\(([^)]*)\)\s*VALUES\s*\(([^;]*)\);/i.exec(s.text);
    if (!m) return [];
    const cols = (m[1] ?? "").split(",").map((c) => c.trim().toUpperCase());
    const vals = (m[2] ?? "").split(",").map((v) => v.trim());
    const at = (c: string) => vals[cols.indexOf(c)];
    const problems: string[] = [];
    if (at("SIPARIS_TURU") !== "1")
      problems.push(`SIPARIS_TURU ${at("SIPARIS_TURU")}: a received order is 1`);
    if (at("SIPARIS_DURUMU") !== "1")
      problems.push(
        `SIPARIS_DURUMU ${at("SIPARIS_DURUMU")}: a new order waits for confirmation (1 Beklemede)`,
      );
    return problems;
  },
};

export const WOLVOX_RULES: RuntimeRule<RecordedStatement>[] = [generatorAdvancedRule, pendingOrderValuesRule];
