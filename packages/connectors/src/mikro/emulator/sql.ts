/**
 * A small read-only SQL engine for the Mikro emulator's `SqlVeriOkuV2`: enough T-SQL for what integrators
 * send (SELECT [TOP n] cols | COUNT(*) [AS n] FROM table [WITH (NOLOCK)] [WHERE …] [ORDER BY …]
 * [OFFSET … FETCH NEXT …]),
 * with AND / OR / NOT / parentheses, = <> != < <= > >=, IN (…), LIKE, IS [NOT] NULL. Anything else is refused
 * with SQL Server-like messages. Column names are case-insensitive, as with Mikro's default collation.
 */

export type SqlValue = string | number | boolean | null;
export type Row = Record<string, SqlValue>;

export class SqlError extends Error {}

type Tok = { t: "id" | "str" | "num" | "sym"; v: string };

function tokenize(sql: string): Tok[] {
  const out: Tok[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i] ?? "";
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === "-" && sql[i + 1] === "-") throw new SqlError("Comments are not allowed.");
    if (c === "'" || ((c === "N" || c === "n") && sql[i + 1] === "'")) {
      let j = c === "'" ? i + 1 : i + 2;
      let s = "";
      for (;;) {
        if (j >= sql.length) throw new SqlError("Unclosed quotation mark after the character string.");
        const ch = sql[j] ?? "";
        if (ch === "'") {
          if (sql[j + 1] === "'") {
            s += "'";
            j += 2;
            continue;
          }
          break;
        }
        s += ch;
        j++;
      }
      out.push({ t: "str", v: s });
      i = j + 1;
      continue;
    }
    if (/[0-9]/.test(c) || (c === "-" && /[0-9]/.test(sql[i + 1] ?? ""))) {
      const m = /^-?\d+(\.\d+)?/.exec(sql.slice(i));
      out.push({ t: "num", v: m?.[0] ?? c });
      i += m?.[0].length ?? 1;
      continue;
    }
    if (/[A-Za-z_[\]]/.test(c)) {
      const m = /^(\[?[A-Za-z_][\w]*\]?)(\.\[?[A-Za-z_][\w]*\]?)*/.exec(sql.slice(i));
      const raw = m?.[0] ?? c;
      const parts = raw.replace(/[[\]]/g, "").split(".");
      out.push({ t: "id", v: parts[parts.length - 1] ?? raw });
      i += raw.length;
      continue;
    }
    const two = sql.slice(i, i + 2);
    if (two === "<>" || two === "!=" || two === "<=" || two === ">=") {
      out.push({ t: "sym", v: two });
      i += 2;
      continue;
    }
    if ("(),*=<>".includes(c)) {
      out.push({ t: "sym", v: c });
      i++;
      continue;
    }
    if (c === ";") throw new SqlError("Only one SELECT statement can be run.");
    throw new SqlError(`Incorrect syntax near '${c}'.`);
  }
  return out;
}

type Expr =
  | { k: "and" | "or"; a: Expr; b: Expr }
  | { k: "not"; a: Expr }
  | { k: "cmp"; col: string; op: string; v: SqlValue }
  | { k: "in"; col: string; vs: SqlValue[]; neg: boolean }
  | { k: "like"; col: string; re: RegExp; neg: boolean }
  | { k: "null"; col: string; neg: boolean };

export interface SelectQuery {
  table: string;
  columns: Array<{ col: string; as: string }> | "*";
  /** `COUNT(*) [AS name]`: one row with the number of matching rows under that name. */
  count?: string;
  top?: number;
  where?: Expr;
  orderBy: Array<{ col: string; desc: boolean }>;
  offset?: number;
  fetch?: number;
}

class Parser {
  private i = 0;
  constructor(private readonly toks: Tok[]) {}

  private peek(): Tok | undefined {
    return this.toks[this.i];
  }
  private kw(word: string): boolean {
    const t = this.peek();
    if (t?.t === "id" && t.v.toUpperCase() === word) {
      this.i++;
      return true;
    }
    return false;
  }
  private expectKw(word: string): void {
    if (!this.kw(word))
      throw new SqlError(`Incorrect syntax near '${this.peek()?.v ?? "end"}', expected ${word}.`);
  }
  private sym(s: string): boolean {
    const t = this.peek();
    if (t?.t === "sym" && t.v === s) {
      this.i++;
      return true;
    }
    return false;
  }
  private ident(): string {
    const t = this.peek();
    if (t?.t !== "id") throw new SqlError(`Incorrect syntax near '${t?.v ?? "end"}'.`);
    this.i++;
    return t.v;
  }
  private int(): number {
    const t = this.peek();
    if (t?.t !== "num") throw new SqlError(`Incorrect syntax near '${t?.v ?? "end"}', expected a number.`);
    this.i++;
    return Number(t.v);
  }
  private literal(): SqlValue {
    const t = this.peek();
    if (t?.t === "str") {
      this.i++;
      return t.v;
    }
    if (t?.t === "num") {
      this.i++;
      return Number(t.v);
    }
    if (t?.t === "id" && t.v.toUpperCase() === "NULL") {
      this.i++;
      return null;
    }
    throw new SqlError(`Incorrect syntax near '${t?.v ?? "end"}', expected a value.`);
  }

  parse(): SelectQuery {
    const first = this.peek();
    if (!(first?.t === "id" && first.v.toUpperCase() === "SELECT")) {
      throw new SqlError("Only SELECT statements can be run through SqlVeriOkuV2.");
    }
    this.i++;
    let top: number | undefined;
    if (this.kw("TOP")) {
      const paren = this.sym("(");
      top = this.int();
      if (paren && !this.sym(")")) throw new SqlError("Incorrect syntax near TOP.");
    }
    let columns: SelectQuery["columns"];
    let count: string | undefined;
    const countStar = this.toks[this.i];
    if (
      countStar?.t === "id" &&
      countStar.v.toUpperCase() === "COUNT" &&
      this.toks[this.i + 1]?.v === "(" &&
      this.toks[this.i + 2]?.v === "*" &&
      this.toks[this.i + 3]?.v === ")"
    ) {
      this.i += 4;
      columns = [];
      count = this.kw("AS") ? this.ident() : "";
    } else if (this.sym("*")) columns = "*";
    else {
      columns = [];
      do {
        const col = this.ident();
        let as = col;
        if (this.kw("AS")) as = this.ident();
        columns.push({ col, as });
      } while (this.sym(","));
    }
    this.expectKw("FROM");
    const table = this.ident();
    if (this.kw("WITH")) {
      if (!this.sym("(")) throw new SqlError("Incorrect syntax near WITH.");
      this.ident();
      if (!this.sym(")")) throw new SqlError("Incorrect syntax near WITH.");
    }
    let where: Expr | undefined;
    if (this.kw("WHERE")) where = this.orExpr();
    const orderBy: SelectQuery["orderBy"] = [];
    if (this.kw("ORDER")) {
      this.expectKw("BY");
      do {
        const col = this.ident();
        let desc = false;
        if (this.kw("DESC")) desc = true;
        else this.kw("ASC");
        orderBy.push({ col, desc });
      } while (this.sym(","));
    }
    let offset: number | undefined;
    let fetch: number | undefined;
    if (this.kw("OFFSET")) {
      offset = this.int();
      if (!this.kw("ROWS")) this.expectKw("ROW");
      if (this.kw("FETCH")) {
        if (!this.kw("NEXT")) this.expectKw("FIRST");
        fetch = this.int();
        if (!this.kw("ROWS")) this.expectKw("ROW");
        this.expectKw("ONLY");
      }
      if (orderBy.length === 0) throw new SqlError("Invalid usage of the option OFFSET without ORDER BY.");
    }
    if (this.peek()) throw new SqlError(`Incorrect syntax near '${this.peek()?.v}'.`);
    return { table, columns, count, top, where, orderBy, offset, fetch };
  }

  private orExpr(): Expr {
    let a = this.andExpr();
    while (this.kw("OR")) a = { k: "or", a, b: this.andExpr() };
    return a;
  }
  private andExpr(): Expr {
    let a = this.notExpr();
    while (this.kw("AND")) a = { k: "and", a, b: this.notExpr() };
    return a;
  }
  private notExpr(): Expr {
    if (this.kw("NOT")) return { k: "not", a: this.notExpr() };
    if (this.sym("(")) {
      const e = this.orExpr();
      if (!this.sym(")")) throw new SqlError("Incorrect syntax near ')'.");
      return e;
    }
    const col = this.ident();
    if (this.kw("IS")) {
      const neg = this.kw("NOT");
      this.expectKw("NULL");
      return { k: "null", col, neg };
    }
    const neg = this.kw("NOT");
    if (this.kw("IN")) {
      if (!this.sym("(")) throw new SqlError("Incorrect syntax near IN.");
      const vs: SqlValue[] = [];
      do vs.push(this.literal());
      while (this.sym(","));
      if (!this.sym(")")) throw new SqlError("Incorrect syntax near IN.");
      return { k: "in", col, vs, neg };
    }
    if (this.kw("LIKE")) {
      const pat = this.literal();
      const re = new RegExp(
        `^${String(pat)
          .replace(/[.*+?^${}()|\\]/g, "\\$&")
          .replace(/%/g, ".*")
          .replace(/_/g, ".")}$`,
        "i",
      );
      return { k: "like", col, re, neg };
    }
    if (neg) throw new SqlError("Incorrect syntax near NOT.");
    const t = this.peek();
    if (t?.t !== "sym" || !["=", "<>", "!=", "<", "<=", ">", ">="].includes(t.v)) {
      throw new SqlError(`Incorrect syntax near '${t?.v ?? "end"}'.`);
    }
    this.i++;
    return { k: "cmp", col, op: t.v, v: this.literal() };
  }
}

export function parseSelect(sql: string): SelectQuery {
  return new Parser(tokenize(sql)).parse();
}

/** Upper-case for case-insensitive comparison; skips the work for strings without lower-case letters. */
function upper(s: string): string {
  return /[a-zçğıöşü]/.test(s) ? s.toLocaleUpperCase("tr-TR") : s;
}

/** Case-insensitive equality that stops at the first differing character. */
function equalsCI(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const cx = a.charCodeAt(i);
    const cy = b.charCodeAt(i);
    if (cx === cy) continue;
    if (cx < 128 && cy < 128) {
      const lx = cx | 32;
      if (lx !== (cy | 32) || lx < 97 || lx > 122) return false;
      continue;
    }
    if ((a[i] ?? "").toLocaleUpperCase("tr-TR") !== (b[i] ?? "").toLocaleUpperCase("tr-TR")) return false;
  }
  return true;
}

function compare(a: SqlValue, b: SqlValue): number {
  if (a === null || b === null) return Number.NaN;
  if (typeof a === "string" && typeof b === "string") {
    // Ordering compares raw strings (codes, dates and GUIDs sort the same either way); equality and IN
    // are case-insensitive like Mikro's default collation.
    return a < b ? -1 : a > b ? 1 : 0;
  }
  if (typeof a === "number" && typeof b === "number") return a - b;
  if (typeof a === "boolean" || typeof b === "boolean") return Number(a) - Number(b);
  if (typeof a === "number" && typeof b === "string" && b.trim() !== "" && !Number.isNaN(Number(b)))
    return a - Number(b);
  if (typeof b === "number" && typeof a === "string" && a.trim() !== "" && !Number.isNaN(Number(a)))
    return Number(a) - b;
  const sa = upper(String(a));
  const sb = upper(String(b));
  return sa < sb ? -1 : sa > sb ? 1 : 0;
}

function inKey(v: SqlValue): string | undefined {
  if (v === null) return undefined;
  if (typeof v === "string") return `s${upper(v)}`;
  return `n${Number(v)}`;
}

export interface Table {
  /** Column names as Mikro spells them. */
  columns: string[];
  rows: Row[];
  /** Bump on every change of existing rows: sorted caches depend on it (appends are detected). */
  version?: number;
  sortCache?: Map<string, { version: number; length: number; rows: Row[] }>;
  indexCache?: Map<string, { version: number; length: number; map: Map<string, Row[]> }>;
}

function resolver(table: Table): (col: string) => string {
  const map = new Map(table.columns.map((c) => [c.toLowerCase(), c]));
  return (col) => {
    const hit = map.get(col.toLowerCase());
    if (!hit) throw new SqlError(`Invalid column name '${col}'.`);
    return hit;
  };
}

function compile(e: Expr, col: (c: string) => string): (r: Row) => boolean {
  switch (e.k) {
    case "and": {
      const a = compile(e.a, col);
      const b = compile(e.b, col);
      return (r) => a(r) && b(r);
    }
    case "or": {
      const a = compile(e.a, col);
      const b = compile(e.b, col);
      return (r) => a(r) || b(r);
    }
    case "not": {
      const a = compile(e.a, col);
      return (r) => !a(r);
    }
    case "null": {
      const c = col(e.col);
      return (r) => (r[c] === null || r[c] === undefined) !== e.neg;
    }
    case "in": {
      const c = col(e.col);
      const set = new Set(e.vs.map(inKey));
      return (r) => {
        const k = inKey(r[c] ?? null);
        return k !== undefined && set.has(k) !== e.neg;
      };
    }
    case "like": {
      const c = col(e.col);
      return (r) => (r[c] != null && e.re.test(String(r[c]))) !== e.neg;
    }
    case "cmp": {
      const c = col(e.col);
      const v = e.v;
      switch (e.op) {
        case "=": {
          if (typeof v === "string") {
            return (r) => {
              const x = r[c];
              return typeof x === "string" ? equalsCI(x, v) : compare(x ?? null, v) === 0;
            };
          }
          return (r) => compare(r[c] ?? null, v) === 0;
        }
        case "<>":
        case "!=":
          return (r) => {
            const x = compare(r[c] ?? null, v);
            return !Number.isNaN(x) && x !== 0;
          };
        case "<":
          return (r) => compare(r[c] ?? null, v) < 0;
        case "<=":
          return (r) => compare(r[c] ?? null, v) <= 0;
        case ">":
          return (r) => compare(r[c] ?? null, v) > 0;
        default:
          return (r) => compare(r[c] ?? null, v) >= 0;
      }
    }
  }
}

export function runSelect(sql: string, tables: Record<string, Table>, maxRows = 100_000): Row[] {
  const q = parseSelect(sql);
  const tableKey = Object.keys(tables).find((t) => t.toLowerCase() === q.table.toLowerCase());
  const table = tableKey ? tables[tableKey] : undefined;
  if (!table || !tableKey) throw new SqlError(`Invalid object name '${q.table}'.`);
  const col = resolver(table);
  const pred = q.where ? compile(q.where, col) : undefined;
  const order = q.orderBy.map((o) => ({ c: col(o.col), desc: o.desc }));
  const projection = q.columns === "*" ? undefined : q.columns.map((c) => ({ from: col(c.col), as: c.as }));
  if (q.count !== undefined) {
    const base = (q.where && candidates(table, q.where, col)) || table.rows;
    return [{ [q.count]: pred ? base.filter(pred).length : base.length }];
  }
  const offset = q.offset ?? 0;
  const limit = Math.min(q.fetch ?? q.top ?? Number.POSITIVE_INFINITY, maxRows);
  let rows: Row[];
  if (order.length > 0) {
    // Walk the table in ORDER BY order (sorted once per table version), filtering as we go.
    let skip = offset;
    rows = [];
    const sorted = sortedRows(table, order);
    // A keyset condition on the leading ORDER BY columns is false then true along the order: binary search.
    let start = 0;
    const keyset = q.where ? findKeyset(q.where, order, col) : undefined;
    if (keyset) {
      const k = compile(keyset, col);
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (k(sorted[mid] as Row)) hi = mid;
        else lo = mid + 1;
      }
      start = lo;
    }
    // An upper bound on the leading ORDER BY column (`c1 < x`, a range's end) stops the walk.
    const bound = q.where ? findUpperBound(q.where, order, col) : undefined;
    const within = bound ? compile(bound, col) : undefined;
    for (let i = start; i < sorted.length; i++) {
      const r = sorted[i] as Row;
      if (within && r[bound?.k === "cmp" ? col(bound.col) : ""] != null && !within(r)) break;
      if (pred && !pred(r)) continue;
      if (skip > 0) {
        skip--;
        continue;
      }
      rows.push(r);
      if (rows.length >= limit) break;
    }
  } else {
    const base = (q.where && candidates(table, q.where, col)) || table.rows;
    rows = pred ? base.filter(pred) : base;
    rows = rows.slice(offset, Number.isFinite(limit) ? offset + limit : undefined);
  }
  if (!projection) return rows.map((r) => ({ ...r }));
  return rows.map((r) => {
    const o: Row = {};
    for (const p of projection) o[p.as] = r[p.from] ?? null;
    return o;
  });
}

/** Rows that can match a top-level `col = lit` / `col IN (…)` (through a hash index), or undefined. */
function candidates(table: Table, e: Expr, col: (c: string) => string): Row[] | undefined {
  if (e.k === "and") return candidates(table, e.a, col) ?? candidates(table, e.b, col);
  let values: SqlValue[];
  let column: string;
  if (e.k === "in" && !e.neg) {
    values = e.vs;
    column = col(e.col);
  } else if (e.k === "cmp" && e.op === "=") {
    values = [e.v];
    column = col(e.col);
  } else return undefined;
  table.indexCache ??= new Map();
  const version = table.version ?? 0;
  let idx = table.indexCache.get(column);
  if (!idx || idx.version !== version || idx.length !== table.rows.length) {
    const map = new Map<string, Row[]>();
    for (const r of table.rows) {
      const k = inKey(r[column] ?? null);
      if (k === undefined) continue;
      const list = map.get(k);
      if (list) list.push(r);
      else map.set(k, [r]);
    }
    idx = { version, length: table.rows.length, map };
    table.indexCache.set(column, idx);
  }
  const out: Row[] = [];
  const seen = new Set<string>();
  for (const v of values) {
    const k = inKey(v);
    if (k === undefined || seen.has(k)) continue;
    seen.add(k);
    out.push(...(idx.map.get(k) ?? []));
  }
  return out;
}

/** A top-level conjunct `c1 > x`, `c1 >= x` or `(c1 > x OR (c1 = x AND c2 > y))` on the ascending sort keys. */
function findKeyset(
  e: Expr,
  order: Array<{ c: string; desc: boolean }>,
  col: (c: string) => string,
): Expr | undefined {
  if (e.k === "and") return findKeyset(e.a, order, col) ?? findKeyset(e.b, order, col);
  const first = order[0];
  const second = order[1];
  if (!first || first.desc) return undefined;
  const isGt = (x: Expr, c: string | undefined, ops: string[]) =>
    x.k === "cmp" && c !== undefined && col(x.col) === c && ops.includes(x.op) && x.v !== null;
  if (isGt(e, first.c, [">", ">="])) return e;
  if (e.k === "or" && isGt(e.a, first.c, [">"]) && e.b.k === "and" && second && !second.desc) {
    const eq = e.b.a;
    const gt = e.b.b;
    if (
      eq.k === "cmp" &&
      eq.op === "=" &&
      col(eq.col) === first.c &&
      e.a.k === "cmp" &&
      eq.v === e.a.v &&
      (typeof eq.v !== "string") === (typeof e.a.v !== "string") &&
      isGt(gt, second.c, [">", ">="])
    ) {
      // `=` is case-insensitive; the order is raw: only safe for values without letters case issues.
      if (typeof eq.v !== "string" || eq.v === eq.v.toUpperCase()) return e;
    }
  }
  return undefined;
}

/** A top-level conjunct `c1 < x` or `c1 <= x` on the ascending first sort key (with non-string x or upper-case x). */
function findUpperBound(
  e: Expr,
  order: Array<{ c: string; desc: boolean }>,
  col: (c: string) => string,
): Expr | undefined {
  if (e.k === "and") return findUpperBound(e.a, order, col) ?? findUpperBound(e.b, order, col);
  const first = order[0];
  if (!first || first.desc || e.k !== "cmp" || col(e.col) !== first.c || e.v === null) return undefined;
  if (e.op !== "<" && e.op !== "<=") return undefined;
  // Ordering is raw while comparison folds case: only safe where folding changes nothing.
  if (typeof e.v === "string" && e.v !== e.v.toUpperCase()) return undefined;
  return e;
}

function sortedRows(table: Table, order: Array<{ c: string; desc: boolean }>): Row[] {
  const spec = order.map((o) => `${o.c}${o.desc ? " desc" : ""}`).join(",");
  table.sortCache ??= new Map();
  const version = table.version ?? 0;
  const hit = table.sortCache.get(spec);
  if (hit && hit.version === version && hit.length === table.rows.length) return hit.rows;
  const keyOf = (v: SqlValue | undefined): SqlValue =>
    v === undefined || v === null ? null : typeof v === "boolean" ? Number(v) : v;
  // Rows are only ever appended, so after a write the last order plus the new rows is nearly sorted:
  // the engine's merge sort (TimSort) then costs about one pass, as a database keeps its index.
  const start =
    hit && hit.length <= table.rows.length ? hit.rows.concat(table.rows.slice(hit.length)) : table.rows;
  const decorated = start.map((r) => ({ r, k: order.map((o) => keyOf(r[o.c])) }));
  decorated.sort((a, b) => {
    for (let i = 0; i < order.length; i++) {
      const x = a.k[i] ?? null;
      const y = b.k[i] ?? null;
      let v: number;
      if (x === y) v = 0;
      else if (x === null) v = -1;
      else if (y === null) v = 1;
      else if (typeof x === "number" && typeof y === "number") v = x - y;
      else v = String(x) < String(y) ? -1 : 1;
      if (v !== 0) return order[i]?.desc ? -v : v;
    }
    return 0;
  });
  const rows = decorated.map((d) => d.r);
  table.sortCache.set(spec, { version, length: table.rows.length, rows });
  return rows;
}
