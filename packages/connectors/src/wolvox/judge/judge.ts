/**
 * The Wolvox SQL judge: checks a statement the connector sends against the schema fixture (schema.ts,
 * transcribed from a real Wolvox 9 database's dictionary). `node-sql-parser` reads none of the Firebird
 * forms the connector needs (`SELECT FIRST (n)`, `EXECUTE BLOCK … RETURNS … SUSPEND`, `:VAR`
 * variables), so this is a documented tokenizer check with deliberately strict rules:
 *
 * 1. Only SELECT and EXECUTE BLOCK statements; DELETE, MERGE and DDL are refused outright, UPDATE except
 *    of Wolvox's key counter table (GEN_IDT, only its GEN_VALUE), which an order write must advance.
 * 2. Every table after FROM / JOIN / INSERT INTO / UPDATE is a fixture table (or RDB$DATABASE); INSERT
 *    only into the pending-order tables (SIPARIS, SIPARISHR) and the counter table, never into a ledger or
 *    movement table.
 * 3. Every column reference is qualified (`ALIAS.COLUMN`) and the column exists in the alias's table;
 *    an alias names one table per statement. INSERT column lists name columns of the target table.
 * 4. Values are parameters: no string literals; every `@name` has a value and every value is used.
 * 5. A block variable inserted into a column is declared with a compatible type (a VARCHAR no longer
 *    than the column, a number for a number column, a TIMESTAMP for a TIMESTAMP).
 */

import type { SqlParams } from "../../sdk/sql";
import type { WolvoxColumn } from "./derive-schema";
import {
  COUNTER_ROW_GENERATOR,
  COUNTER_TABLES,
  type FixtureTable,
  LEDGER_TABLES,
  WOLVOX_TABLES,
  WRITABLE_TABLES,
} from "./schema";

export interface SqlVerdict {
  /** What the statement does, for the conformance report ("read STOK", "write SIPARIS+SIPARISHR"). */
  operation: string;
  problems: string[];
}

const TABLES = WOLVOX_TABLES as Record<string, FixtureTable>;
const SYSTEM_TABLES = new Set(["RDB$DATABASE"]);

const KEYWORDS = new Set(
  `SELECT FIRST SKIP DISTINCT FROM WHERE AND OR NOT IN IS NULL AS ON JOIN LEFT RIGHT INNER OUTER GROUP BY
  ORDER ASC DESC HAVING CASE WHEN THEN ELSE END COALESCE SUM MAX MIN COUNT CAST EXISTS INSERT INTO VALUES
  EXECUTE BLOCK RETURNS BEGIN IF DECLARE VARIABLE SUSPEND TRIM UPPER LOWER CURRENT_TIMESTAMP BETWEEN LIKE
  ROWS ROUND ABS IIF BIGINT INTEGER SMALLINT VARCHAR CHAR DOUBLE PRECISION TIMESTAMP NUMERIC DATE BLOB
  SUB_TYPE TEXT CHARACTER SET ALL UNION WHILE DO FOR GEN_ID ROW_COUNT UPDATE`
    .split(/\s+/)
    .filter(Boolean),
);
const COUNTERS = new Set<string>(COUNTER_TABLES);
const FORBIDDEN = new Set(["DELETE", "MERGE", "ALTER", "DROP", "CREATE", "GRANT", "REVOKE", "RECREATE"]);

type Token = { kind: "word" | "var" | "param" | "number" | "string" | "punct"; text: string };

function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  const re =
    /(--[^\n]*|\/\*[\s\S]*?\*\/)|('(?:[^']|'')*')|(@[A-Za-z_][A-Za-z0-9_]*)|(:[A-Za-z_][A-Za-z0-9_$]*)|([A-Za-z_][A-Za-z0-9_$]*)|(\d+(?:\.\d+)?)|(\S)/g;
  for (let m = re.exec(sql); m; m = re.exec(sql)) {
    if (m[1]) continue;
    if (m[2]) tokens.push({ kind: "string", text: m[2] });
    else if (m[3]) tokens.push({ kind: "param", text: m[3].slice(1) });
    else if (m[4]) tokens.push({ kind: "var", text: m[4].slice(1).toUpperCase() });
    else if (m[5]) tokens.push({ kind: "word", text: m[5].toUpperCase() });
    else if (m[6]) tokens.push({ kind: "number", text: m[6] });
    else if (m[7]) tokens.push({ kind: "punct", text: m[7] });
  }
  return tokens;
}

/** `VARCHAR(30)` → { base: "VARCHAR", length: 30 }. */
function typeOf(type: string): { base: string; length?: number } {
  const m = /^([A-Z ]+?)\s*(?:\((\d+)\))?$/.exec(type.trim().toUpperCase());
  return { base: (m?.[1] ?? type).trim(), length: m?.[2] ? Number(m[2]) : undefined };
}

const NUMERIC = new Set(["BIGINT", "INTEGER", "SMALLINT", "DOUBLE PRECISION", "NUMERIC", "DECIMAL", "FLOAT"]);

function compatible(declared: string, column: WolvoxColumn): string | undefined {
  const d = typeOf(declared);
  const c = typeOf(column.type);
  if (c.base === "VARCHAR" || c.base === "CHAR") {
    if (d.base !== "VARCHAR" && d.base !== "CHAR") return `${declared} into ${column.name} ${column.type}`;
    if ((d.length ?? 0) > (c.length ?? 0)) return `${declared} is longer than ${column.name} ${column.type}`;
    return undefined;
  }
  if (NUMERIC.has(c.base))
    return NUMERIC.has(d.base) ? undefined : `${declared} into ${column.name} ${column.type}`;
  if (c.base === "TIMESTAMP")
    return d.base === "TIMESTAMP" ? undefined : `${declared} into ${column.name} ${column.type}`;
  if (c.base.startsWith("BLOB")) return undefined;
  return undefined;
}

export function judgeSql(text: string, params: SqlParams = {}): SqlVerdict {
  const problems: string[] = [];
  const tokens = tokenize(text);
  const words = tokens.filter((t) => t.kind === "word").map((t) => t.text);
  const isBlock = words[0] === "EXECUTE" && words[1] === "BLOCK";
  if (!isBlock && words[0] !== "SELECT")
    problems.push(`statement is neither SELECT nor EXECUTE BLOCK: ${words[0]}`);
  for (const w of words) if (FORBIDDEN.has(w)) problems.push(`${w} is never sent to Wolvox`);
  // UPDATE only of the counter table's GEN_VALUE (`UPDATE GEN_IDT G SET G.GEN_VALUE = …`).
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]?.kind !== "word" || tokens[i]?.text !== "UPDATE") continue;
    const table = tokens[i + 1]?.text ?? "";
    if (!COUNTERS.has(table)) {
      problems.push(`UPDATE of ${table} is never sent to Wolvox (only its key counters in GEN_IDT)`);
      continue;
    }
    const set = tokens.findIndex((t, k) => k > i && t.text === "SET");
    const where = tokens.findIndex((t, k) => k > set && t.text === "WHERE");
    const assigned = tokens
      .slice(set + 1, where < 0 ? undefined : where)
      .filter((t, k, a) => t.kind === "word" && a[k + 1]?.text === "=" && a[k - 1]?.text === ".");
    if (assigned.some((t) => t.text !== "GEN_VALUE") || assigned.length === 0)
      problems.push(`UPDATE ${table} sets only GEN_VALUE`);
    if (where < 0) problems.push(`UPDATE ${table} without WHERE`);
  }
  for (const t of tokens)
    if (t.kind === "string") problems.push(`literal ${t.text}: values go as parameters`);

  // Parameters: each used one has a value, each value is used.
  const used = new Set(tokens.filter((t) => t.kind === "param").map((t) => t.text));
  for (const p of used) if (!(p in params)) problems.push(`@${p} has no value`);
  for (const p of Object.keys(params))
    if (!used.has(p)) problems.push(`value ${p} is not used by the statement`);

  // Block-declared names (input parameters, outputs, local variables) and their types.
  const declared = new Map<string, string>();
  if (isBlock) {
    for (let i = 0; i < tokens.length; i++) {
      const t = tokens[i]!;
      const prev = tokens[i - 1];
      const startsDecl =
        prev?.text === "(" || prev?.text === "," || (prev?.kind === "word" && prev.text === "VARIABLE");
      if (t.kind !== "word" || !startsDecl || KEYWORDS.has(t.text)) continue;
      const next = tokens[i + 1];
      if (
        next?.kind !== "word" ||
        ![
          "BIGINT",
          "INTEGER",
          "SMALLINT",
          "VARCHAR",
          "CHAR",
          "DOUBLE",
          "TIMESTAMP",
          "NUMERIC",
          "DATE",
          "BLOB",
        ].includes(next.text)
      )
        continue;
      let type = next.text;
      let j = i + 2;
      if (type === "DOUBLE" && tokens[j]?.text === "PRECISION") {
        type = "DOUBLE PRECISION";
        j++;
      }
      if (tokens[j]?.text === "(" && tokens[j + 1]?.kind === "number") type += `(${tokens[j + 1]!.text})`;
      declared.set(t.text, type);
    }
  }

  // Tables and their aliases.
  const aliases = new Map<string, string>();
  const tablesRead = new Set<string>();
  const tablesWritten = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== "word" || !["FROM", "JOIN", "INTO", "UPDATE"].includes(t.text)) continue;
    const name = tokens[i + 1];
    if (name?.kind !== "word") continue; // `SELECT … INTO :VAR`, or a sub-select `FROM (`
    const table = name.text;
    if (t.text === "UPDATE") {
      if (TABLES[table]) tablesWritten.add(table);
      const alias = tokens[i + 2];
      if (alias?.kind === "word" && !KEYWORDS.has(alias.text)) aliases.set(alias.text, table);
      continue;
    }
    const insert = t.text === "INTO" && tokens[i - 1]?.text === "INSERT";
    if (!TABLES[table] && !SYSTEM_TABLES.has(table)) {
      problems.push(`table ${table} is not in the Wolvox schema fixture`);
      continue;
    }
    if (insert) {
      tablesWritten.add(table);
      if ((LEDGER_TABLES as readonly string[]).includes(table))
        problems.push(`INSERT into ledger table ${table}: Wolvox ledgers are never written`);
      else if (!(WRITABLE_TABLES as readonly string[]).includes(table) && !COUNTERS.has(table))
        problems.push(`INSERT into ${table}: only pending orders (SIPARIS, SIPARISHR) are written`);
      // Column list and VALUES.
      const cols: string[] = [];
      let j = i + 2;
      if (tokens[j]?.text === "(") {
        for (j++; j < tokens.length && tokens[j]!.text !== ")"; j++)
          if (tokens[j]!.kind === "word") cols.push(tokens[j]!.text);
      }
      const columns = TABLES[table]?.columns ?? [];
      for (const c of cols)
        if (!columns.some((x) => x.name === c)) problems.push(`column ${table}.${c} is not in the fixture`);
      for (const c of columns)
        if (c.notNull && !c.default && !cols.includes(c.name))
          problems.push(`INSERT into ${table} leaves NOT NULL column ${c.name} empty`);
      // VALUES (:A, :B, …): a plain variable's declared type must suit its column.
      while (j < tokens.length && tokens[j]!.text !== "VALUES") j++;
      if (tokens[j]?.text === "VALUES" && tokens[j + 1]?.text === "(") {
        const exprs: Token[][] = [[]];
        let depth = 0;
        for (j += 2; j < tokens.length; j++) {
          const v = tokens[j]!;
          if (v.text === ")" && depth === 0) break;
          if (v.text === "," && depth === 0) {
            exprs.push([]);
            continue;
          }
          if (v.text === "(") depth++;
          if (v.text === ")") depth--;
          exprs.at(-1)!.push(v);
        }
        if (exprs.length !== cols.length)
          problems.push(`INSERT into ${table}: ${cols.length} columns, ${exprs.length} values`);
        exprs.forEach((expr, k) => {
          const only = expr.length === 1 ? expr[0] : undefined;
          const col = columns.find((x) => x.name === cols[k]);
          if (only?.kind !== "var" || !col) return;
          const type = declared.get(only.text);
          if (!type) problems.push(`:${only.text} is not declared`);
          else {
            const bad = compatible(type, col);
            if (bad) problems.push(`${table}.${col.name}: ${bad}`);
          }
        });
      }
    } else tablesRead.add(table);
    const alias = tokens[i + 2];
    if (!insert && alias?.kind === "word" && !KEYWORDS.has(alias.text)) {
      const bound = aliases.get(alias.text);
      if (bound && bound !== table) problems.push(`alias ${alias.text} names both ${bound} and ${table}`);
      aliases.set(alias.text, table);
    }
  }

  // Column references.
  const outputNames = new Set<string>();
  for (let i = 0; i < tokens.length; i++)
    if (tokens[i]!.text === "AS" && tokens[i + 1]?.kind === "word") outputNames.add(tokens[i + 1]!.text);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind !== "word") continue;
    if (tokens[i + 1]?.text === ".") {
      const col = tokens[i + 2];
      const table = aliases.get(t.text) ?? (TABLES[t.text] ? t.text : undefined);
      if (!table) problems.push(`${t.text}.${col?.text}: ${t.text} is not a table or alias of the statement`);
      else if (col?.kind === "word" && !TABLES[table]?.columns.some((c) => c.name === col.text))
        problems.push(`column ${table}.${col.text} is not in the fixture`);
      i += 2;
      continue;
    }
    if (KEYWORDS.has(t.text) || aliases.has(t.text) || TABLES[t.text] || SYSTEM_TABLES.has(t.text)) continue;
    if (t.text === COUNTER_ROW_GENERATOR && tokens[i - 2]?.text === "GEN_ID") continue;
    if (declared.has(t.text) || outputNames.has(t.text)) continue;
    // INSERT column lists were checked above.
    if (isInsertColumn(tokens, i)) continue;
    problems.push(`unqualified name ${t.text}: qualify columns with their table alias`);
  }

  // The counter advanced with a write is part of that write, not an operation of its own.
  const written = [...tablesWritten].filter((t) => !COUNTERS.has(t));
  const operation =
    written.length > 0
      ? `write ${written.sort().join("+")}`
      : `read ${[...tablesRead].sort().join("+") || "-"}`;
  return { operation, problems: [...new Set(problems)] };
}

/** True when the word at `i` sits inside the column list of an `INSERT INTO T (…)`. */
function isInsertColumn(tokens: Token[], i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const t = tokens[j]!;
    if (t.text === ")") return false;
    if (t.text === "(") return tokens[j - 2]?.text === "INTO" && tokens[j - 3]?.text === "INSERT";
  }
  return false;
}

/** Conformance report over every statement a test sent. */
export interface SqlConformanceReport {
  statements: number;
  operations: Record<string, { statements: number; failed: number }>;
  failures: Array<{ operation: string; text: string; problems: string[] }>;
}

export function judgeStatements(
  statements: Array<{ text: string; params?: SqlParams }>,
): SqlConformanceReport {
  const report: SqlConformanceReport = { statements: 0, operations: {}, failures: [] };
  for (const s of statements) {
    const v = judgeSql(s.text, s.params);
    report.statements++;
    const op = report.operations[v.operation] ?? { statements: 0, failed: 0 };
    report.operations[v.operation] = op;
    op.statements++;
    if (v.problems.length) {
      op.failed++;
      report.failures.push({ operation: v.operation, text: s.text, problems: v.problems });
    }
  }
  return report;
}
