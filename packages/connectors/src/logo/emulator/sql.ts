/**
 * Logo SQL emulator: Logo-shaped tables (the schema fixture of ../judge/schema.ts, nothing else) seeded
 * with Turkish catalogue data in PGlite. `answerSql` first runs the judge — a statement the judge refuses
 * is refused here too, with SQL Server's error numbers (208 unknown object, 207 unknown column, 102
 * syntax) — then translates the judged T-SQL AST to PostgreSQL with node-sql-parser (`@name` parameters
 * bound as literals, `TOP n` as `LIMIT n`, `ISNULL` as `COALESCE`) and runs it.
 *
 * `answerSql` is the handler a TDS (SQL Server wire) responder serves to the agent's mssql driver;
 * `transport()` is the same handler at the connector's SQL seam for tests without the wire.
 */

import type { PGlite } from "@electric-sql/pglite";
import type { SqlQuery, SqlResult, SqlTransport } from "../../sdk/sql";
import { sqlParser } from "../../sdk/sql-parser";
import { turkishDate } from "../../sdk/turkish-time";
import { generateCatalog } from "../../testing/catalog";
import { LOGO_TABLES, type LogoColumnType, logoTableName } from "../judge/schema";
import { judgeLogoSql, parseLogoSql, type RecordedSql } from "../judge/sql";

export interface SqlAnswer {
  columns: { name: string; type: LogoColumnType }[];
  rows: Record<string, unknown>[];
}

/** An error as SQL Server reports it (`number` is the server's error number). */
export class LogoSqlError extends Error {
  constructor(
    message: string,
    readonly number: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = "RequestError";
  }
}

export type LogoSqlFault = "timeout" | "deadlock" | "lost";

export interface LogoPeriodRow {
  nr: number;
  begin: string;
  end: string;
  active: boolean;
}

export interface LogoSqlEmulatorOptions {
  seed?: number | string;
  productCount?: number;
  firm?: number;
  /** Periods of the firm (default: one, 2026, active). */
  periods?: LogoPeriodRow[];
  now?: () => number;
}

const PG_TYPE: Record<LogoColumnType, string> = {
  int: "integer",
  decimal: "double precision",
  nvarchar: "varchar(200)",
  datetime: "timestamp",
  bit: "boolean",
};

function typeOfOid(oid: number): LogoColumnType {
  if ([20, 21, 23].includes(oid)) return "int";
  if ([700, 701, 1700].includes(oid)) return "decimal";
  if ([1082, 1114, 1184].includes(oid)) return "datetime";
  if (oid === 16) return "bit";
  return "nvarchar";
}

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === "object" && v !== null;

/** Binds `@name` references as literals, `ISNULL` as `COALESCE`, `TOP n` as `LIMIT n` (in place). */
function toPostgres(n: unknown, params: Record<string, unknown>): unknown {
  if (Array.isArray(n)) return n.map((x) => toPostgres(x, params));
  if (!isNode(n)) return n;
  if (n.type === "column_ref" && typeof n.column === "string" && n.column.startsWith("@")) {
    const v = params[n.column.slice(1)];
    if (v === null || v === undefined) return { type: "null", value: null };
    if (typeof v === "number") return { type: "number", value: v };
    if (typeof v === "boolean") return { type: "number", value: v ? 1 : 0 };
    const s = v instanceof Date ? v.toISOString().replace("T", " ").replace("Z", "") : String(v);
    return { type: "single_quote_string", value: s };
  }
  if (n.type === "function" && isNode(n.name) && Array.isArray(n.name.name)) {
    const first = n.name.name[0] as Node | undefined;
    if (first && String(first.value).toUpperCase() === "ISNULL") first.value = "COALESCE";
  }
  for (const k of Object.keys(n)) n[k] = toPostgres(n[k], params);
  if (n.type === "select" && isNode(n.top)) {
    n.limit = { seperator: "", value: [{ type: "number", value: n.top.value }] };
    n.top = null;
  }
  return n;
}

export class LogoSqlEmulator {
  /** Every statement received, judged or not (the contract test judges them all). */
  readonly recorded: RecordedSql[] = [];
  readonly faults: LogoSqlFault[] = [];
  readonly firm: number;
  periods: LogoPeriodRow[];
  /** Item codes by LOGICALREF, as seeded. */
  readonly items: Array<{ ref: number; code: string; barcode: string; retail: number; wholesale: number }> =
    [];
  statements = 0;
  private readonly now: () => number;

  private constructor(
    private readonly db: PGlite,
    opts: LogoSqlEmulatorOptions,
  ) {
    this.firm = opts.firm ?? 1;
    this.now = opts.now ?? Date.now;
    this.periods = opts.periods ?? [{ nr: 1, begin: "2026-01-01", end: "2026-12-31", active: true }];
  }

  static async start(opts: LogoSqlEmulatorOptions = {}): Promise<LogoSqlEmulator> {
    // Loaded here, not with the package: the emulator runs in tests and sandboxes only.
    const { PGlite } = await import("@electric-sql/pglite");
    const emu = new LogoSqlEmulator(await PGlite.create(), opts);
    await emu.seed(opts);
    return emu;
  }

  /** The active period's number (the one the emulated Logo works in). */
  get period(): number {
    return (this.periods.find((p) => p.active) ?? this.periods[this.periods.length - 1])?.nr ?? 1;
  }

  table(pattern: string, period = this.period): string {
    return logoTableName(pattern, this.firm, period);
  }

  private async createTables(firm: number, period: number): Promise<void> {
    for (const t of LOGO_TABLES) {
      const name = logoTableName(t.pattern, firm, period);
      const cols = Object.entries(t.columns)
        .map(([c, d]) => `"${c}" ${PG_TYPE[d.type]}`)
        .join(", ");
      await this.db.exec(`CREATE TABLE IF NOT EXISTS "${name}" (${cols})`);
    }
  }

  private async insert(table: string, rows: Record<string, unknown>[]): Promise<void> {
    for (const row of rows) {
      const keys = Object.keys(row);
      await this.db.query(
        `INSERT INTO "${table}" (${keys.map((k) => `"${k}"`).join(", ")}) VALUES (${keys.map((_, i) => `$${i + 1}`).join(", ")})`,
        keys.map((k) => row[k]),
      );
    }
  }

  private async seed(opts: LogoSqlEmulatorOptions): Promise<void> {
    const f = this.firm;
    for (const p of this.periods) await this.createTables(f, p.nr);
    // Another firm in the same system tables: reads must stay on the configured one.
    await this.createTables(f + 1, 1);
    await this.insert("L_CAPIFIRM", [
      { NR: f, NAME: "ÖRNEK TİCARET A.Ş." },
      { NR: f + 1, NAME: "BAŞKA FİRMA LTD. ŞTİ." },
    ]);
    await this.insert("L_CAPIPERIOD", [
      ...this.periods.map((p) => ({
        FIRMNR: f,
        NR: p.nr,
        BEGDATE: p.begin,
        ENDDATE: p.end,
        ACTIVE: p.active ? 1 : 0,
      })),
      { FIRMNR: f + 1, NR: 7, BEGDATE: "2026-01-01", ENDDATE: "2026-12-31", ACTIVE: 1 },
    ]);
    await this.insert("L_CAPIWHOUSE", [
      { FIRMNR: f, NR: 0, NAME: "Merkez Ambar" },
      { FIRMNR: f, NR: 1, NAME: "İstanbul Depo" },
      { FIRMNR: f, NR: 2, NAME: "Ankara Mağaza" },
      { FIRMNR: f + 1, NR: 9, NAME: "Başka Firmanın Deposu" },
    ]);
    const catalog = generateCatalog({
      seed: opts.seed ?? 1,
      count: opts.productCount ?? 40,
      now: this.now(),
    });
    const brands = [...new Set(catalog.map((c) => c.brand))];
    const units = [...new Set(catalog.map((c) => c.unit))];
    await this.insert(
      this.table("LG_{F}_MARK"),
      brands.map((b, i) => ({ LOGICALREF: i + 1, CODE: `M${i + 1}`, DESCR: b })),
    );
    await this.insert(
      this.table("LG_{F}_UNITSETL"),
      units.map((u, i) => ({
        LOGICALREF: 100 + i,
        UNITSETREF: 10 + i,
        CODE: u.toLocaleUpperCase("tr-TR"),
        NAME: u,
        MAINUNIT: 1,
      })),
    );
    const items: Record<string, unknown>[] = [];
    const barcodes: Record<string, unknown>[] = [];
    const prices: Record<string, unknown>[] = [];
    const stock: Record<string, unknown>[] = [];
    catalog.forEach((c, i) => {
      const ref = i + 1;
      const created = turkishDate(c.updatedAt - 400 * 86_400_000);
      this.items.push({
        ref,
        code: c.sku,
        barcode: c.barcode,
        retail: c.retailPrice,
        wholesale: c.wholesalePrice,
      });
      items.push({
        LOGICALREF: ref,
        CODE: c.sku,
        NAME: c.name,
        VAT: c.vatRate,
        ACTIVE: i % 17 === 16 ? 1 : 0,
        STGRPCODE: c.categoryChild,
        CARDTYPE: 1,
        UNITSETREF: 10 + units.indexOf(c.unit),
        MARKREF: brands.indexOf(c.brand) + 1,
        CAPIBLOCK_CREADEDDATE: created,
        // Cards never changed since creation keep a NULL modification date.
        CAPIBLOCK_MODIFIEDDATE: i % 3 === 0 ? null : turkishDate(c.updatedAt),
      });
      barcodes.push({
        LOGICALREF: ref,
        ITEMREF: ref,
        UNITLINEREF: 100 + units.indexOf(c.unit),
        BARCODE: c.barcode,
        LINENR: 1,
      });
      if (i % 5 === 0)
        barcodes.push({
          LOGICALREF: 10_000 + ref,
          ITEMREF: ref,
          UNITLINEREF: 100 + units.indexOf(c.unit),
          BARCODE: `2${String(ref).padStart(12, "0")}`,
          LINENR: 2,
        });
      const priceRow = (n: number, priority: number, price: number, incvat: number, ptype = 2) => ({
        LOGICALREF: n,
        CARDREF: ref,
        PTYPE: ptype,
        PRICE: price,
        ACTIVE: 0,
        PRIORITY: priority,
        CURRENCY: 160,
        BEGDATE: "2020-01-01",
        ENDDATE: "2099-12-31",
        INCVAT: incvat,
        CAPIBLOCK_CREADEDDATE: created,
        CAPIBLOCK_MODIFIEDDATE: i % 2 === 0 ? turkishDate(c.updatedAt) : null,
      });
      prices.push(priceRow(ref * 10 + 1, 1, c.retailPrice, 1));
      prices.push(priceRow(ref * 10 + 2, 2, c.wholesalePrice, 0));
      prices.push(priceRow(ref * 10 + 3, 1, Math.round(c.wholesalePrice * 60) / 100, 0, 1));
      // Stock per warehouse, some in two rows of the view (it totals per date): the reader must sum.
      let total = 0;
      for (const wh of [0, 1, 2]) {
        const qty = (ref * 7 + wh * 3) % 23;
        total += qty;
        if (qty === 0) continue;
        if (ref % 4 === 0 && qty > 1) {
          stock.push(
            { STOCKREF: ref, INVENNO: wh, ONHAND: qty - 1 },
            { STOCKREF: ref, INVENNO: wh, ONHAND: 1 },
          );
        } else stock.push({ STOCKREF: ref, INVENNO: wh, ONHAND: qty });
      }
      stock.push({ STOCKREF: ref, INVENNO: -1, ONHAND: total });
    });
    await this.insert(this.table("LG_{F}_ITEMS"), items);
    await this.insert(this.table("LG_{F}_UNITBARCODE"), barcodes);
    await this.insert(this.table("LG_{F}_PRCLIST"), prices);
    await this.insert(this.table("LV_{F}_{P}_STINVTOT"), stock);
    // The other firm has an item too (same code space): it must never be read.
    await this.insert(logoTableName("LG_{F}_ITEMS", f + 1), [
      { LOGICALREF: 1, CODE: "BASKA-FIRMA-1", NAME: "Başka firmanın ürünü", VAT: 20, ACTIVE: 0 },
    ]);
  }

  /** Runs a statement as SQL Server would answer it (after the judge). */
  async answerSql(text: string, params: Record<string, unknown> = {}): Promise<SqlAnswer> {
    this.statements++;
    this.recorded.push({ text, params: { ...params } });
    const fault = this.faults.shift();
    if (fault === "timeout")
      throw new LogoSqlError("Timeout: Request failed to complete in 15000ms", 0, "ETIMEOUT");
    if (fault === "lost") throw new LogoSqlError("Connection lost - read ECONNRESET", 0, "ECONNRESET");
    if (fault === "deadlock")
      throw new LogoSqlError(
        "Transaction (Process ID 61) was deadlocked on lock resources with another process and has been chosen as the deadlock victim. Rerun the transaction.",
        1205,
      );
    const parsed = parseLogoSql(text);
    if (!parsed.ast) throw new LogoSqlError(`Incorrect syntax: ${parsed.problem}`, 102);
    const verdict = judgeLogoSql({ text, params }, { firm: undefined });
    const unknownTable = verdict.problems.find((p) => /^unknown table /.test(p));
    if (unknownTable) {
      const name = /^unknown table (\S+)/.exec(unknownTable)?.[1];
      throw new LogoSqlError(`Invalid object name '${name}'.`, 208);
    }
    const unknownColumn = verdict.problems.find((p) => /^unknown column /.test(p));
    if (unknownColumn) {
      const name = /^unknown column (\S+)/.exec(unknownColumn)?.[1]?.split(".").pop();
      throw new LogoSqlError(`Invalid column name '${name}'.`, 207);
    }
    if (verdict.problems.length > 0) throw new LogoSqlError(verdict.problems.join("; "), 50000);
    const pg = sqlParser("PostgresQL").sqlify(toPostgres(parsed.ast, params) as never, {
      database: "postgresql",
    });
    const result = await this.db.query<Record<string, unknown>>(pg);
    return {
      columns: result.fields.map((fd) => ({ name: fd.name, type: typeOfOid(fd.dataTypeID) })),
      rows: result.rows,
    };
  }

  /** The handler at the connector's SQL seam (dialect mssql), as the agent's relay would carry it. */
  transport(): SqlTransport {
    return {
      dialect: "mssql",
      query: async (q: SqlQuery): Promise<SqlResult> => {
        const answer = await this.answerSql(q.text, q.params ?? {});
        return { rows: answer.rows };
      },
    };
  }

  /** A change to an item card today (the modification date is the date only, as Logo keeps it). */
  async touchItem(code: string, patch: { NAME?: string; VAT?: number } = {}): Promise<void> {
    const sets = Object.keys(patch).map((k, i) => `"${k}" = $${i + 2}`);
    await this.db.query(
      `UPDATE "${this.table("LG_{F}_ITEMS")}" SET ${[...sets, `"CAPIBLOCK_MODIFIEDDATE" = $1`].join(", ")} WHERE "CODE" = $${sets.length + 2}`,
      [turkishDate(this.now()), ...Object.values(patch), code],
    );
  }

  async setPrice(code: string, priority: number, price: number): Promise<void> {
    const item = this.items.find((i) => i.code === code);
    await this.db.query(
      `UPDATE "${this.table("LG_{F}_PRCLIST")}" SET "PRICE" = $1, "CAPIBLOCK_MODIFIEDDATE" = $2 WHERE "CARDREF" = $3 AND "PRIORITY" = $4 AND "PTYPE" = 2`,
      [price, turkishDate(this.now()), item?.ref ?? -1, priority],
    );
  }

  async setStock(code: string, warehouse: number, qty: number, period = this.period): Promise<void> {
    const item = this.items.find((i) => i.code === code);
    const t = this.table("LV_{F}_{P}_STINVTOT", period);
    await this.db.query(`DELETE FROM "${t}" WHERE "STOCKREF" = $1 AND "INVENNO" = $2`, [
      item?.ref,
      warehouse,
    ]);
    await this.db.query(`INSERT INTO "${t}" ("STOCKREF", "INVENNO", "ONHAND") VALUES ($1, $2, $3)`, [
      item?.ref,
      warehouse,
      qty,
    ]);
  }

  /**
   * Year-end rollover as Logo does it: a new period is opened (its tables created, opening balances
   * carried over) and becomes the active one; the old period stays readable.
   */
  async rollover(begin: string, end: string): Promise<number> {
    const old = this.period;
    const nr = Math.max(...this.periods.map((p) => p.nr)) + 1;
    for (const p of this.periods) p.active = false;
    this.periods.push({ nr, begin, end, active: true });
    await this.createTables(this.firm, nr);
    await this.db.query(`UPDATE "L_CAPIPERIOD" SET "ACTIVE" = 0 WHERE "FIRMNR" = $1`, [this.firm]);
    await this.db.query(
      `INSERT INTO "L_CAPIPERIOD" ("FIRMNR", "NR", "BEGDATE", "ENDDATE", "ACTIVE") VALUES ($1, $2, $3, $4, 1)`,
      [this.firm, nr, begin, end],
    );
    await this.db.exec(
      `INSERT INTO "${this.table("LV_{F}_{P}_STINVTOT", nr)}" SELECT "STOCKREF", "INVENNO", SUM("ONHAND") FROM "${this.table("LV_{F}_{P}_STINVTOT", old)}" GROUP BY "STOCKREF", "INVENNO"`,
    );
    return nr;
  }

  async close(): Promise<void> {
    await this.db.close();
  }
}
