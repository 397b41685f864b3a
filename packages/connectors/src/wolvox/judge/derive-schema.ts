/**
 * Derives the Wolvox schema fixture from its artifact: the table dictionary a read-only analysis of a
 * real Wolvox 9 company database (DEMOWOLVOX, Firebird 2.5.6, WIN1254) wrote out, published in
 * `yunuscan/Wolvox-Ai:wolvox-docs/02-tablo-sozlugu.md` @ 73cc653af290fe2d40dc81d359e11480d61d867d.
 * Each table there is a `## NAME` heading, a `**Primary Key:**` line and a markdown table of
 * `| # | \`COLUMN\` | TYPE | NULL/NOT NULL | DEFAULT |` rows. `schema.ts` is this function's output for
 * the tables the connector reads or writes; `judge.test.ts` re-derives it when the artifact is at hand.
 */

export interface WolvoxColumn {
  name: string;
  /** Firebird type as the dictionary spells it (BIGINT, VARCHAR(30), DOUBLE PRECISION, TIMESTAMP …). */
  type: string;
  notNull: boolean;
  /** Default clause as listed (e.g. "DEFAULT 0"), if any. */
  default?: string;
}

export interface WolvoxTable {
  name: string;
  primaryKey: string[];
  columns: WolvoxColumn[];
  /** Line of the `## NAME` heading in the artifact. */
  line: number;
}

export function deriveTables(markdown: string, wanted: readonly string[]): Record<string, WolvoxTable> {
  const lines = markdown.split("\n");
  const out: Record<string, WolvoxTable> = {};
  for (let i = 0; i < lines.length; i++) {
    const heading = /^## ([A-Z0-9_$]+)\s*$/.exec(lines[i] ?? "");
    if (!heading || !wanted.includes(heading[1] as string)) continue;
    const table: WolvoxTable = { name: heading[1] as string, primaryKey: [], columns: [], line: i + 1 };
    for (let j = i + 1; j < lines.length && !(lines[j] ?? "").startsWith("## "); j++) {
      const line = lines[j] ?? "";
      const pk = /^\*\*Primary Key:\*\*\s*(.+?)\s*$/.exec(line);
      if (pk) table.primaryKey = (pk[1] as string).split(",").map((s) => s.trim());
      const col =
        /^\|\s*\d+\s*\|\s*`([A-Z0-9_$]+)`\s*\|\s*([^|]+?)\s*\|\s*(NOT NULL|NULL)\s*\|\s*([^|]*?)\s*\|/.exec(
          line,
        );
      if (col)
        table.columns.push({
          name: col[1] as string,
          type: col[2] as string,
          notNull: col[3] === "NOT NULL",
          ...(col[4] ? { default: col[4] } : {}),
        });
    }
    out[table.name] = table;
  }
  return out;
}
