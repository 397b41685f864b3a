/**
 * The judge for Logo Tiger / Go over SQL, part 1: the tables and columns the connector may name, each
 * with the public source it was read from. No DDL of Logo's `LG_{firm}_…` tables is public
 * (artifacts-by-system.md), so this fixture is written from third-party queries known to run against
 * live Logo databases; a column not in it fails the suite. Names only: where a type or meaning is not
 * shown by a source, the note says "inferred".
 *
 * Name patterns: `LG_{F}_X` firm tables (F = 3-digit firm no), `LG_{F}_{P}_X` / `LV_{F}_{P}_X` period
 * tables and views (P = 2-digit period no), `L_X` system tables (erps.md §1d).
 */

export type LogoColumnType = "int" | "decimal" | "nvarchar" | "datetime" | "bit";

export interface LogoSource {
  /** Repository and path (with commit), or a code id of the search index with what it shows. */
  ref: string;
  /** Column names the source shows for this table. */
  shows: string;
}

export interface LogoTable {
  /** Name pattern: `{F}` firm no (3 digits), `{P}` period no (2 digits). */
  pattern: string;
  level: "system" | "firm" | "period";
  columns: Record<string, { type: LogoColumnType; source: string; note?: string }>;
  sources: LogoSource[];
}

/** iyibiryazilim/Deppo @ bd531ffd (2024-12-18): warehouse app with SQL over live Logo databases. */
const DEPPO = "iyibiryazilim/Deppo@bd531ffd7b38b309483f6c0dfa60df83ec74813b";
const DEPPO_BARCODE = `${DEPPO}:Deppo.Core/DataStores/BarcodeSearchDataStore.cs`;
const DEPPO_DEMAND = `${DEPPO}:Deppo.Core/DataStores/BarcodeSearchDemandDataStore.cs`;
const DEPPO_FIRM = `${DEPPO}:Deppo.Core/Models/Company.cs`;
/** B2B sync reading items changed since the last transfer (code id 23404807918). */
const CHANGE_SYNC =
  "code id 23404807918 (ITEMS.CAPIBLOCK_CREADEDDATE / CAPIBLOCK_MODIFIEDDATE as change filter)";
/** Node.js client listing Logo periods with mssql parameters (code id 66087028041). */
const PERIODS = "code id 66087028041 (SELECT NR, BEGDATE, ENDDATE FROM L_CAPIPERIOD WHERE FIRMNR = @firma)";
const PERIODS_ACTIVE =
  "code id 70182812615 (SELECT FIRMNR, NR, BEGDATE, ENDDATE FROM L_CAPIPERIOD WHERE ACTIVE=1)";
const PRICE_SALES = "code id 70525617384 (PRCLIST CARDREF, PTYPE = 2, ACTIVE = 0, PRICE)";
const PRICE_PRIORITY = "code id 52546616567 (PRCLIST PRIORITY 1, 2, … as sales price 1, 2, …)";
const PRICE_DATES = "code id 8162890920 (PRCLIST BEGDATE, ENDDATE, CURRENCY, CARDREF, PTYPE=2)";
const PRICE_INCVAT = "code id 7895562013 (PRCLIST.INCVAT, PRIORITY, PTYPE)";
const PRICE_CHANGED =
  "code id 69597601022 (catalog sync follows modified price rows by CAPIBLOCK_MODIFIEDDATE)";
const BARCODE_ROWS =
  "code id 5128839000 (UNITBARCODE LOGICALREF, BARCODE, ITEMREF, UNITLINEREF, LINENR, CAPIBLOCK_*)";

export const LOGO_TABLES: LogoTable[] = [
  {
    pattern: "L_CAPIFIRM",
    level: "system",
    sources: [{ ref: DEPPO_FIRM, shows: "NR, NAME" }],
    columns: {
      NR: { type: "int", source: DEPPO_FIRM },
      NAME: { type: "nvarchar", source: DEPPO_FIRM },
    },
  },
  {
    pattern: "L_CAPIPERIOD",
    level: "system",
    sources: [
      { ref: PERIODS, shows: "FIRMNR, NR, BEGDATE, ENDDATE" },
      { ref: PERIODS_ACTIVE, shows: "ACTIVE" },
    ],
    columns: {
      FIRMNR: { type: "int", source: PERIODS },
      NR: { type: "int", source: PERIODS },
      BEGDATE: { type: "datetime", source: PERIODS },
      ENDDATE: { type: "datetime", source: PERIODS },
      ACTIVE: { type: "int", source: PERIODS_ACTIVE, note: "inferred: 1 = the period in use" },
    },
  },
  {
    pattern: "L_CAPIWHOUSE",
    level: "system",
    sources: [{ ref: DEPPO_DEMAND, shows: "FIRMNR, NR, NAME (joined on STINVTOT.INVENNO = NR)" }],
    columns: {
      FIRMNR: { type: "int", source: DEPPO_DEMAND },
      NR: { type: "int", source: DEPPO_DEMAND },
      NAME: { type: "nvarchar", source: DEPPO_DEMAND },
    },
  },
  {
    pattern: "LG_{F}_ITEMS",
    level: "firm",
    sources: [
      { ref: DEPPO_BARCODE, shows: "LOGICALREF, CODE, NAME, VAT, ACTIVE, STGRPCODE, UNITSETREF, MARKREF" },
      { ref: DEPPO_DEMAND, shows: "CARDTYPE" },
      { ref: CHANGE_SYNC, shows: "CAPIBLOCK_CREADEDDATE (sic), CAPIBLOCK_MODIFIEDDATE" },
    ],
    columns: {
      LOGICALREF: { type: "int", source: DEPPO_BARCODE },
      CODE: { type: "nvarchar", source: DEPPO_BARCODE },
      NAME: { type: "nvarchar", source: DEPPO_BARCODE },
      VAT: { type: "decimal", source: DEPPO_BARCODE },
      ACTIVE: { type: "int", source: DEPPO_BARCODE, note: "0 = active (erps.md §1d)" },
      STGRPCODE: { type: "nvarchar", source: DEPPO_BARCODE },
      CARDTYPE: { type: "int", source: DEPPO_DEMAND },
      UNITSETREF: { type: "int", source: DEPPO_BARCODE },
      MARKREF: { type: "int", source: DEPPO_BARCODE },
      CAPIBLOCK_CREADEDDATE: {
        type: "datetime",
        source: CHANGE_SYNC,
        note: "inferred: date part only; the time is in CAPIBLOCK_CREATEDHOUR/MIN/SEC",
      },
      CAPIBLOCK_MODIFIEDDATE: {
        type: "datetime",
        source: CHANGE_SYNC,
        note: "NULL until the card is first changed; inferred: date part only",
      },
    },
  },
  {
    pattern: "LG_{F}_MARK",
    level: "firm",
    sources: [{ ref: DEPPO_BARCODE, shows: "LOGICALREF, CODE, DESCR (ITEMS.MARKREF = MARK.LOGICALREF)" }],
    columns: {
      LOGICALREF: { type: "int", source: DEPPO_BARCODE },
      CODE: { type: "nvarchar", source: DEPPO_BARCODE },
      DESCR: { type: "nvarchar", source: DEPPO_BARCODE },
    },
  },
  {
    pattern: "LG_{F}_UNITSETL",
    level: "firm",
    sources: [{ ref: DEPPO_BARCODE, shows: "LOGICALREF, UNITSETREF, CODE, NAME, MAINUNIT" }],
    columns: {
      LOGICALREF: { type: "int", source: DEPPO_BARCODE },
      UNITSETREF: { type: "int", source: DEPPO_BARCODE },
      CODE: { type: "nvarchar", source: DEPPO_BARCODE },
      NAME: { type: "nvarchar", source: DEPPO_BARCODE },
      MAINUNIT: { type: "int", source: DEPPO_BARCODE, note: "1 = the main unit of the set" },
    },
  },
  {
    pattern: "LG_{F}_UNITBARCODE",
    level: "firm",
    sources: [
      { ref: DEPPO_BARCODE, shows: "ITEMREF, UNITLINEREF, BARCODE" },
      { ref: BARCODE_ROWS, shows: "LOGICALREF, LINENR" },
    ],
    columns: {
      LOGICALREF: { type: "int", source: BARCODE_ROWS },
      ITEMREF: { type: "int", source: DEPPO_BARCODE },
      UNITLINEREF: { type: "int", source: DEPPO_BARCODE },
      BARCODE: { type: "nvarchar", source: DEPPO_BARCODE },
      LINENR: { type: "int", source: BARCODE_ROWS },
    },
  },
  {
    pattern: "LG_{F}_PRCLIST",
    level: "firm",
    sources: [
      { ref: PRICE_SALES, shows: "CARDREF, PTYPE, ACTIVE, PRICE" },
      { ref: PRICE_PRIORITY, shows: "PRIORITY" },
      { ref: PRICE_DATES, shows: "BEGDATE, ENDDATE, CURRENCY" },
      { ref: PRICE_INCVAT, shows: "INCVAT" },
      { ref: PRICE_CHANGED, shows: "CAPIBLOCK_MODIFIEDDATE" },
    ],
    columns: {
      LOGICALREF: { type: "int", source: PRICE_PRIORITY },
      CARDREF: { type: "int", source: PRICE_SALES },
      PTYPE: { type: "int", source: PRICE_SALES, note: "1 purchase, 2 sales (erps.md §1d)" },
      PRICE: { type: "decimal", source: PRICE_SALES },
      ACTIVE: { type: "int", source: PRICE_SALES, note: "0 = active" },
      PRIORITY: { type: "int", source: PRICE_PRIORITY },
      CURRENCY: { type: "int", source: PRICE_DATES, note: "inferred: 0/160 TL, 1 USD, 20 EUR" },
      BEGDATE: { type: "datetime", source: PRICE_DATES },
      ENDDATE: { type: "datetime", source: PRICE_DATES },
      INCVAT: { type: "int", source: PRICE_INCVAT, note: "inferred: 1 = price includes VAT" },
      CAPIBLOCK_CREADEDDATE: {
        type: "datetime",
        source: BARCODE_ROWS,
        note: "inferred from the CAPIBLOCK block every Logo card carries",
      },
      CAPIBLOCK_MODIFIEDDATE: { type: "datetime", source: PRICE_CHANGED },
    },
  },
  {
    pattern: "LV_{F}_{P}_STINVTOT",
    level: "period",
    sources: [{ ref: DEPPO_BARCODE, shows: "STOCKREF, INVENNO, ONHAND (SUM by INVENNO)" }],
    columns: {
      STOCKREF: { type: "int", source: DEPPO_BARCODE },
      INVENNO: { type: "int", source: DEPPO_BARCODE, note: "-1 = all warehouses (erps.md §1d)" },
      ONHAND: { type: "decimal", source: DEPPO_BARCODE },
    },
  },
];

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** The concrete name of a table pattern for a firm and period. */
export function logoTableName(pattern: string, firm: number, period?: number): string {
  return pattern.replace("{F}", pad(firm, 3)).replace("{P}", period === undefined ? "{P}" : pad(period, 2));
}

/** The table a concrete name belongs to, with the firm / period it names (undefined: not in the fixture). */
export function logoTableOf(name: string): { table: LogoTable; firm?: number; period?: number } | undefined {
  const upper = name.toUpperCase();
  for (const table of LOGO_TABLES) {
    const re = new RegExp(`^${table.pattern.replace("{F}", "(\\d{3})").replace("{P}", "(\\d{2})")}$`);
    const m = re.exec(upper);
    if (!m) continue;
    if (table.level === "system") return { table };
    return { table, firm: Number(m[1]), period: table.level === "period" ? Number(m[2]) : undefined };
  }
  return undefined;
}
