/**
 * node-sql-parser, one dialect build at a time and only when first used: the package's main entry
 * holds every dialect's parser (about 40 MB of a process's memory, more with source maps), while a
 * server that never checks SQL should not pay for it.
 */
import { createRequire } from "node:module";
import type { Parser } from "node-sql-parser";

export type SqlParserDialect = "TransactSQL" | "PostgresQL";

const BUILDS: Record<SqlParserDialect, string> = {
  TransactSQL: "node-sql-parser/build/transactsql",
  PostgresQL: "node-sql-parser/build/postgresql",
};

const require = createRequire(import.meta.url);
const parsers = new Map<SqlParserDialect, Parser>();

/** The parser of one dialect; its `astify`/`sqlify` take `{ database: dialect }` as the full package's do. */
export function sqlParser(dialect: SqlParserDialect): Parser {
  let parser = parsers.get(dialect);
  if (!parser) {
    const build = require(BUILDS[dialect]) as { Parser: new () => Parser };
    parser = new build.Parser();
    parsers.set(dialect, parser);
  }
  return parser;
}
