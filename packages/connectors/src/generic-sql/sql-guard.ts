/**
 * The read-only decision for merchant SQL: a tokeniser that knows each dialect's literals, quoted names
 * and comments, then an allow-list of statement shapes (one SELECT, or WITH … of SELECTs then a SELECT)
 * and a deny-list of words that write or reach out (EXEC, OPENQUERY, INTO, …). Whatever it cannot read
 * unambiguously (a nested comment, a lone carriage return, a look-alike letter) it refuses, so the
 * database can never read the text differently from us. The agent still runs every merchant read in a
 * transaction that cannot keep a write (rolled back on SQL Server, read-only on Firebird).
 *
 * The refusal carries a code and the part refused; `config.ts` turns it into Turkish.
 */

import type { SqlDialect } from "../sdk/sql";

export type SqlTokenKind = "word" | "quoted" | "string" | "number" | "param" | "sysvar" | "punct";

export interface SqlToken {
  kind: SqlTokenKind;
  /** The token as written. */
  text: string;
  /** Words: upper-cased ASCII text (keywords compare on it); others: the text. */
  upper: string;
  start: number;
  end: number;
}

export type SqlRefusalCode =
  | "empty"
  | "word"
  | "char"
  | "lookalike"
  | "unterminated"
  | "nestedComment"
  | "stacked"
  | "shape"
  | "linkedServer"
  | "procedure";

export class SqlRefusal extends Error {
  constructor(
    readonly code: SqlRefusalCode,
    /** The part refused, as the merchant wrote it (a word, a character, a name). */
    readonly part: string,
  ) {
    super(`${code}: ${part}`);
  }
}

/** Words that change data, end or open a transaction, run code or reach another server. */
export const DENIED_WORDS: ReadonlySet<string> = new Set([
  "INSERT",
  "UPDATE",
  "DELETE",
  "MERGE",
  "UPSERT",
  "TRUNCATE",
  "DROP",
  "ALTER",
  "CREATE",
  "RECREATE",
  "RENAME",
  "GRANT",
  "REVOKE",
  "DENY",
  "EXEC",
  "EXECUTE",
  "CALL",
  "INTO",
  "DECLARE",
  "SET",
  "USE",
  "BEGIN",
  "COMMIT",
  "ROLLBACK",
  "SAVE",
  "RELEASE",
  "SAVEPOINT",
  "TRANSACTION",
  "TRAN",
  "WAITFOR",
  "SHUTDOWN",
  "KILL",
  "RECONFIGURE",
  "BACKUP",
  "RESTORE",
  "DBCC",
  "BULK",
  "CHECKPOINT",
  "OPENQUERY",
  "OPENROWSET",
  "OPENDATASOURCE",
  "OPENXML",
  "RETURNING",
  "OUTPUT",
  "LOCK",
  "UPDLOCK",
  "XLOCK",
  "TABLOCKX",
  "IF",
  "WHILE",
  "GOTO",
  "RETURN",
  "PRINT",
  "RAISERROR",
  "THROW",
  "OPEN",
  "CLOSE",
  "DEALLOCATE",
  "READTEXT",
  "WRITETEXT",
  "UPDATETEXT",
  "ENABLE",
  "DISABLE",
  "SEND",
  "RECEIVE",
  "SETUSER",
  "REVERT",
  "COMMENT",
  "CONNECT",
  "DISCONNECT",
  "GEN_ID",
  "RDB$SET_CONTEXT",
  "POST_EVENT",
  "ADD",
  "BREAK",
  "CONTINUE",
  "MOVE",
  "CONVERSATION",
  "DIALOG",
  "SIGNATURE",
]);

/** Words a look-alike spelling must not stand for (the denied ones and the statement keywords). */
const KEYWORDS = new Set([
  ...DENIED_WORDS,
  "SELECT",
  "WITH",
  "FROM",
  "WHERE",
  "UNION",
  "ALL",
  "AS",
  "AND",
  "OR",
  "NOT",
  "JOIN",
  "ON",
  "ORDER",
  "GROUP",
  "BY",
  "HAVING",
  "FETCH",
  "NEXT",
  "VALUE",
  "FOR",
  "TOP",
  "FIRST",
  "SKIP",
  "ROWS",
  "OFFSET",
]);

/** Table-valued built-ins that read only (a name followed by `(` in FROM is otherwise a procedure). */
const BUILTIN_TABLE_FUNCTIONS = new Set(["STRING_SPLIT", "OPENJSON", "GENERATE_SERIES"]);

/** Old-style table hints in parentheses (`FROM STOK (NOLOCK)`): not a call. */
const TABLE_HINTS = new Set([
  "NOLOCK",
  "READUNCOMMITTED",
  "READCOMMITTED",
  "READCOMMITTEDLOCK",
  "READPAST",
  "REPEATABLEREAD",
  "SERIALIZABLE",
  "NOWAIT",
  "HOLDLOCK",
  "ROWLOCK",
  "PAGLOCK",
  "TABLOCK",
  "NOEXPAND",
  "FORCESEEK",
  "FORCESCAN",
]);

/** Where a SELECT may start: the text's start, an opening parenthesis, a set operator. */
const SELECT_AFTER = new Set(["(", "UNION", "ALL", "DISTINCT", "EXCEPT", "INTERSECT"]);

/** Keywords that end a FROM list at their depth (a `,` after them no longer lists tables). */
const CLAUSES = new Set([
  "WHERE",
  "GROUP",
  "HAVING",
  "ORDER",
  "UNION",
  "EXCEPT",
  "INTERSECT",
  "WINDOW",
  "SELECT",
]);

const LETTER = /[\p{L}\p{M}\p{N}_$#]/u;
const WORD_START = /[\p{L}_#]/u;
const ASCII_WORD = /^[A-Za-z_#][A-Za-z0-9_$#]*$/;
const SPACE = /[ \t\n]/;
/** Letters of other scripts that read like Latin ones (Cyrillic, Greek) and Turkish dotless/dotted I. */
const CONFUSABLE: Record<string, string> = {
  ı: "i",
  İ: "I",
  а: "a",
  е: "e",
  о: "o",
  р: "p",
  с: "c",
  у: "y",
  х: "x",
  ѕ: "s",
  і: "i",
  ј: "j",
  А: "A",
  В: "B",
  Е: "E",
  К: "K",
  М: "M",
  Н: "H",
  О: "O",
  Р: "P",
  С: "C",
  Т: "T",
  Х: "X",
  Α: "A",
  Β: "B",
  Ε: "E",
  Ζ: "Z",
  Η: "H",
  Ι: "I",
  Κ: "K",
  Μ: "M",
  Ν: "N",
  Ο: "O",
  Ρ: "P",
  Τ: "T",
  Υ: "Y",
  Χ: "X",
  ο: "o",
};

const codePoint = (c: string) => `U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}`;

/** A word that may be written with non-ASCII letters: Latin script only, NFKC-stable, not a keyword's look-alike. */
function checkWord(word: string): void {
  if (ASCII_WORD.test(word)) return;
  if (word.normalize("NFKC") !== word) throw new SqlRefusal("lookalike", word);
  for (const c of word)
    if (/\p{L}/u.test(c) && !/\p{Script=Latin}/u.test(c) && !(c in CONFUSABLE))
      throw new SqlRefusal("char", `${c} (${codePoint(c)})`);
  const skeleton = [...word]
    .map((c) => CONFUSABLE[c] ?? c)
    .join("")
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toUpperCase();
  if ([...word].some((c) => c in CONFUSABLE && c !== "ı" && c !== "İ") || KEYWORDS.has(skeleton))
    throw new SqlRefusal("lookalike", word);
}

/**
 * The text's tokens (comments and spaces dropped). Refuses what two readers could take differently:
 * an unterminated literal or comment, a nested block comment (SQL Server nests, Firebird does not),
 * comment markers inside another comment, line ends other than LF / CRLF, and any character outside
 * literals and quoted names that is not ASCII syntax or a letter.
 */
export function tokenize(sql: string, dialect: SqlDialect): SqlToken[] {
  const tokens: SqlToken[] = [];
  const n = sql.length;
  let i = 0;
  const push = (kind: SqlTokenKind, start: number, end: number, upper?: string) => {
    const text = sql.slice(start, end);
    tokens.push({ kind, text, upper: upper ?? (kind === "word" ? text.toUpperCase() : text), start, end });
  };
  /** Ends a quoted span at `close`, a doubled `close` standing for itself. */
  const quoted = (from: number, close: string, what: string): number => {
    let j = from;
    for (;;) {
      const k = sql.indexOf(close, j);
      if (k < 0) throw new SqlRefusal("unterminated", what);
      if (sql[k + 1] === close) {
        j = k + 2;
        continue;
      }
      return k + 1;
    }
  };
  while (i < n) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (SPACE.test(c)) {
      i++;
      continue;
    }
    if (c === "\r") {
      // CRLF only: a lone CR ends a line comment for some readers and not for others.
      if (next !== "\n") throw new SqlRefusal("char", "CR (U+000D)");
      i++;
      continue;
    }
    if (c === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const body = sql.slice(i + 2, end < 0 ? n : end);
      const odd = /\/\*|\*\/|[\v\f\u0085\u2028\u2029]|\r(?!$)/.exec(body);
      if (odd)
        throw new SqlRefusal(
          odd[0].length === 2 ? "nestedComment" : "char",
          `-- … ${odd[0].trim() || codePoint(odd[0])}`,
        );
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (c === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      if (end < 0) throw new SqlRefusal("unterminated", "/*");
      const body = sql.slice(i + 2, end);
      if (body.includes("/*") || body.includes("--")) throw new SqlRefusal("nestedComment", "/* … */");
      if (/[\v\f\u0085\u2028\u2029]|\r(?!\n)/.test(body)) throw new SqlRefusal("char", "/* … */");
      i = end + 2;
      continue;
    }
    if (c === "'") {
      const end = quoted(i + 1, "'", "'");
      push("string", i, end);
      i = end;
      continue;
    }
    // Firebird 3's alternative quoting: q'{ … }' (the closing mark is the opening one's pair).
    if (
      dialect === "firebird" &&
      (c === "q" || c === "Q") &&
      next === "'" &&
      !LETTER.test(sql[i - 1] ?? " ")
    ) {
      const open = sql[i + 2];
      if (!open) throw new SqlRefusal("unterminated", "q'");
      const close = ({ "(": ")", "[": "]", "{": "}", "<": ">" } as Record<string, string>)[open] ?? open;
      const end = sql.indexOf(`${close}'`, i + 3);
      if (end < 0) throw new SqlRefusal("unterminated", `q'${open}`);
      push("string", i, end + 2);
      i = end + 2;
      continue;
    }
    // Quoted names: "…" in both dialects, […] in SQL Server; the closing mark doubled stands for itself.
    const close = c === '"' ? '"' : c === "[" && dialect === "mssql" ? "]" : undefined;
    if (close) {
      const end = quoted(i + 1, close, c);
      const name = sql.slice(i + 1, end - 1).replaceAll(close + close, close);
      push("quoted", i, end, name.toUpperCase());
      i = end;
      continue;
    }
    if (c === "@") {
      let j = i + 1;
      const sys = sql[j] === "@";
      if (sys) j++;
      while (j < n && /[A-Za-z0-9_]/.test(sql[j] as string)) j++;
      if (j === i + 1 + (sys ? 1 : 0)) throw new SqlRefusal("char", "@");
      push(sys ? "sysvar" : "param", i, j, sql.slice(i, j).toUpperCase());
      i = j;
      continue;
    }
    if (/[0-9]/.test(c) || (c === "." && /[0-9]/.test(next ?? ""))) {
      const m = /^(?:0x[0-9A-Fa-f]*|[0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?|[0-9]+\.)/.exec(
        sql.slice(i),
      ) as RegExpExecArray;
      push("number", i, i + m[0].length);
      i += m[0].length;
      continue;
    }
    if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < n && LETTER.test(sql[j] as string)) j++;
      // N'…' (SQL Server national text): the prefix belongs to the literal.
      if (j === i + 1 && (c === "N" || c === "n") && sql[j] === "'") {
        const end = quoted(j + 1, "'", "'");
        push("string", i, end);
        i = end;
        continue;
      }
      const word = sql.slice(i, j);
      checkWord(word);
      push("word", i, j, word.toUpperCase());
      i = j;
      continue;
    }
    if ("(),;.+-*/%=<>!|&^~:?".includes(c)) {
      push("punct", i, i + 1);
      i++;
      continue;
    }
    if (c === "[" || c === "]") {
      push("punct", i, i + 1);
      i++;
      continue;
    }
    throw new SqlRefusal("char", /[\p{L}\p{N}\p{P}\p{S}]/u.test(c) ? `${c} (${codePoint(c)})` : codePoint(c));
  }
  return tokens;
}

/** The parts of an accepted read: where its WITH list ends and its final SELECT begins. */
export interface SqlReadShape {
  tokens: SqlToken[];
  /** Index of the final SELECT's first token (0 without a WITH list). */
  bodyStart: number;
  /** Index after the last token (a trailing `;` excluded). */
  bodyEnd: number;
}

export interface SqlReadOptions {
  /** Procedures the merchant configured as the order writer (a read may select from those only). */
  procedures?: readonly string[];
}

/**
 * Accepts one read (SELECT, or WITH … AS (SELECT …) SELECT …) and returns its shape; throws
 * `SqlRefusal` naming the first part refused.
 */
export function checkRead(sql: string, dialect: SqlDialect, options: SqlReadOptions = {}): SqlReadShape {
  const all = tokenize(sql, dialect);
  let end = all.length;
  if (all[end - 1]?.text === ";") end--;
  const tokens = all.slice(0, end);
  if (tokens.length === 0) throw new SqlRefusal("empty", "");
  const procedures = new Set((options.procedures ?? []).map((p) => p.toUpperCase()));
  const word = (t: SqlToken | undefined, w: string) => t?.kind === "word" && t.upper === w;

  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k] as SqlToken;
    if (t.text === ";") throw new SqlRefusal("stacked", tokens[k + 1]?.text ?? ";");
    if (t.kind !== "word") continue;
    // CAST(x AS VARCHAR(20) CHARACTER SET UTF8) names a character set; any other SET assigns.
    if (t.upper === "SET" && word(tokens[k - 1], "CHARACTER")) continue;
    if (DENIED_WORDS.has(t.upper)) throw new SqlRefusal("word", t.upper);
    if (/^XP_/.test(t.upper) || (/^SP_/.test(t.upper) && tokens[k + 1]?.text === "("))
      throw new SqlRefusal("procedure", t.text);
    // Advancing a sequence is a write that no rollback undoes.
    if (t.upper === "NEXT" && word(tokens[k + 1], "VALUE") && word(tokens[k + 2], "FOR"))
      throw new SqlRefusal("word", "NEXT VALUE FOR");
    // FETCH only as OFFSET … ROWS FETCH NEXT … (a cursor's FETCH is a statement).
    if (t.upper === "FETCH" && !word(tokens[k - 1], "ROWS") && !word(tokens[k - 1], "ROW"))
      throw new SqlRefusal("word", "FETCH");
  }

  // Four-part names (server.database.schema.object) read through a linked server.
  for (let k = 0; k < tokens.length; k++) {
    let dots = 0;
    let j = k;
    while (tokens[j + 1]?.text === "." && j + 1 < tokens.length) {
      dots++;
      j++;
      if (tokens[j + 1]?.kind === "word" || tokens[j + 1]?.kind === "quoted") j++;
    }
    if (dots >= 3 && dialect === "mssql")
      throw new SqlRefusal(
        "linkedServer",
        sql.slice((tokens[k] as SqlToken).start, (tokens[j] as SqlToken).end),
      );
    k = j;
  }

  // Shape: the WITH list, each body a SELECT, then the final SELECT.
  const { bodyStart, cteCloses } = withList(tokens);
  const k = bodyStart;
  let first = k;
  while (tokens[first]?.text === "(") first++;
  if (!word(tokens[first], "SELECT")) throw new SqlRefusal("shape", tokens[first]?.text ?? "");

  // Every SELECT starts the text, follows `(`, a set operator or the WITH list; any other is a second statement.
  const depthOf: number[] = [];
  let depth = 0;
  for (let j = 0; j < tokens.length; j++) {
    const t = tokens[j] as SqlToken;
    if (t.text === "(") depth++;
    if (t.text === ")") {
      depth--;
      if (depth < 0) throw new SqlRefusal("shape", ")");
    }
    depthOf[j] = depth;
    if (!word(t, "SELECT") || j === first) continue;
    const prev = tokens[j - 1] as SqlToken;
    const ok = SELECT_AFTER.has(prev.kind === "word" ? prev.upper : prev.text) || cteCloses.has(j - 1);
    if (!ok) throw new SqlRefusal("stacked", "SELECT");
  }
  if (depth !== 0) throw new SqlRefusal("unterminated", "(");

  // A name followed by `(` where a table goes is a procedure (or a table-valued function) call.
  // A FROM counts only at a depth that has its own SELECT (not EXTRACT(YEAR FROM …), SUBSTRING(… FROM …)).
  const clause: Array<string | undefined> = [];
  for (let j = 0; j < tokens.length; j++) {
    const t = tokens[j] as SqlToken;
    const d = depthOf[j] ?? 0;
    if (t.text === "(") clause[d] = undefined;
    if (t.kind === "word" && CLAUSES.has(t.upper)) clause[d] = t.upper;
    if (t.kind === "word" && t.upper === "FROM" && clause[d] === "SELECT") clause[d] = "FROM";
    const tablePlace =
      (t.kind === "word" && (t.upper === "JOIN" || t.upper === "APPLY")) ||
      ((t.upper === "FROM" || t.text === ",") && clause[d] === "FROM");
    if (!tablePlace) continue;
    let e = j + 1;
    if (tokens[e]?.kind !== "word" && tokens[e]?.kind !== "quoted") continue;
    while (tokens[e + 1]?.text === "." && tokens[e + 2]) e += 2;
    const name = tokens[e] as SqlToken;
    if (tokens[e + 1]?.text !== "(") continue;
    const args = tokens.slice(e + 2, closeOf(tokens, e + 1));
    if (dialect === "mssql" && args.every((a) => a.text === "," || TABLE_HINTS.has(a.upper))) continue;
    if (name.kind === "word" && BUILTIN_TABLE_FUNCTIONS.has(name.upper)) continue;
    if (procedures.has(name.upper)) continue;
    throw new SqlRefusal("procedure", sql.slice((tokens[j + 1] as SqlToken).start, name.end));
  }
  return { tokens, bodyStart, bodyEnd: tokens.length };
}

/**
 * The WITH list at the text's start (`WITH [RECURSIVE] name [(cols)] AS (SELECT …), …`): where the
 * final SELECT begins and the `)` closing each CTE; a body that is not a SELECT is refused.
 */
function withList(tokens: SqlToken[]): { bodyStart: number; cteCloses: Set<number> } {
  const cteCloses = new Set<number>();
  const word = (t: SqlToken | undefined, w: string) => t?.kind === "word" && t.upper === w;
  if (!word(tokens[0], "WITH")) return { bodyStart: 0, cteCloses };
  let k = word(tokens[1], "RECURSIVE") ? 2 : 1;
  for (;;) {
    const name = tokens[k];
    if (!name || (name.kind !== "word" && name.kind !== "quoted"))
      throw new SqlRefusal("shape", name?.text ?? "WITH");
    k++;
    if (tokens[k]?.text === "(") k = closeOf(tokens, k) + 1;
    if (!word(tokens[k], "AS") || tokens[k + 1]?.text !== "(")
      throw new SqlRefusal("shape", tokens[k]?.text ?? name.text);
    const close = closeOf(tokens, k + 1);
    const first = tokens[k + 2];
    if (!word(first, "SELECT") && first?.text !== "(") throw new SqlRefusal("shape", first?.text ?? ")");
    cteCloses.add(close);
    k = close + 1;
    if (tokens[k]?.text !== ",") return { bodyStart: k, cteCloses };
    k++;
  }
}

/**
 * A keyset page over an accepted read, valid in the database's dialect: the WITH list stays in front
 * (SQL Server takes no WITH inside a derived table), the final SELECT goes into the derived table, and
 * its top-level ORDER BY is dropped unless a row limit depends on it (SQL Server error 1033: no ORDER BY
 * in a derived table without TOP, OFFSET or FOR XML; the page is ordered by the key outside anyway).
 * SQL Server's OPTION (…) hints move to the outer statement, the only place they may stand.
 */
export function pageOverRead(
  sql: string,
  dialect: SqlDialect,
  page: { keyColumn: string; pageSize: number; after: boolean },
): string {
  const all = tokenize(sql, dialect);
  const tokens = all.at(-1)?.text === ";" ? all.slice(0, -1) : all;
  const { bodyStart } = withList(tokens);
  const prelude = bodyStart > 0 ? `${sql.slice(0, (tokens[bodyStart - 1] as SqlToken).end)} ` : "";
  const body = tokens.slice(bodyStart);
  let depth = 0;
  let orderBy = -1;
  let option = -1;
  let setOperator = false;
  let limited = false;
  body.forEach((t, j) => {
    if (t.text === "(") depth++;
    else if (t.text === ")") depth--;
    if (depth !== 0 || t.kind !== "word") return;
    if (["UNION", "EXCEPT", "INTERSECT"].includes(t.upper)) setOperator = true;
    if (["TOP", "FIRST", "SKIP", "OFFSET", "ROWS", "FETCH"].includes(t.upper)) limited = true;
    if (t.upper === "ORDER" && body[j + 1]?.upper === "BY") orderBy = j;
    if (t.upper === "OPTION" && dialect === "mssql" && body[j + 1]?.text === "(") option = j;
  });
  const keepOrder = limited && !(setOperator && dialect === "mssql");
  const stop = option >= 0 ? option : body.length;
  const from = (body[0] as SqlToken).start;
  // The ORDER BY runs to the end of the statement (or to OPTION / a row-limit clause after it).
  let orderEnd = stop;
  if (orderBy >= 0)
    for (let j = orderBy; j < stop; j++)
      if (["OFFSET", "ROWS", "FETCH", "FOR"].includes((body[j] as SqlToken).upper)) {
        orderEnd = j;
        break;
      }
  const piece = (a: number, b: number) =>
    a < b ? sql.slice((body[a] as SqlToken).start, (body[b - 1] as SqlToken).end) : "";
  const inner =
    orderBy >= 0 && !keepOrder
      ? `${piece(0, orderBy)} ${piece(orderEnd, stop)}`.trim()
      : sql.slice(from, (body[stop - 1] as SqlToken).end);
  const hints = option >= 0 ? ` ${piece(option, body.length)}` : "";
  const { keyColumn, pageSize, after } = page;
  const where = after ? ` WHERE q.${keyColumn} > @after` : "";
  return dialect === "mssql"
    ? `${prelude}SELECT TOP (${pageSize}) * FROM (${inner}) AS q${where} ORDER BY q.${keyColumn}${hints}`
    : `${prelude}SELECT FIRST ${pageSize} * FROM (${inner}) q${where} ORDER BY q.${keyColumn}`;
}

/** Index of the `)` closing the `(` at `open`. */
function closeOf(tokens: SqlToken[], open: number): number {
  let depth = 0;
  for (let j = open; j < tokens.length; j++) {
    const t = (tokens[j] as SqlToken).text;
    if (t === "(") depth++;
    else if (t === ")" && --depth === 0) return j;
  }
  throw new SqlRefusal("unterminated", "(");
}
