/**
 * The generic SQL connector's runtime rules on SQL Server, as data with their sources: SQL Server's own
 * binder rules the grammar takes (`TSQL_DIALECT_RULES`, the paging of a merchant's SELECT must keep them),
 * the declared parameters of its `sp_executesql` call, and the read-only guard the agent keeps (every
 * merchant read inside a transaction that is rolled back, and no text that could end it). The contract
 * suite judges every statement the TDS responder receives with them, and the responder refuses a
 * statement that breaks one with the rule's error number (SQL Server's own where it has one).
 */

import { TSQL_DIALECT_RULES, type TsqlRule, tsqlDeclaredParametersRule } from "../../testing/sql-judge";
import type { TdsStatement } from "../../testing/tds-server";

/** A merchant read (products, stock, prices, categories, order lookup): a SELECT or WITH, not the order write. */
export function isMerchantRead(text: string): boolean {
  const body = text.replace(/^(?:\s+|--[^\n]*\n?|\/\*[\s\S]*?\*\/)*/, "");
  return /^(?:\(\s*)*(?:SELECT|WITH)\b/i.test(body);
}

/** The two words that end a transaction from inside a statement (the agent refuses them in a read). */
const TRANSACTION_END = /\b(?:COMMIT|ROLLBACK)\b/i;

const TRANSACTION_SOURCES = [
  {
    kind: "vendor-doc" as const,
    ref: "[MS-TDS] 2.2.5.3 ALL_HEADERS, 2.2.6.9 Transaction Manager Request (learn.microsoft.com/openspecs)",
    says: "a request sent inside a transaction carries that transaction's 8-byte descriptor in its ALL_HEADERS; BEGIN and ROLLBACK are Transaction Manager requests",
  },
  {
    kind: "official-sdk" as const,
    ref: "tediousjs/tedious@v19:src/transaction.ts, src/token/env-change-token-parser.ts",
    says: "the driver begins a transaction with a TM request, keeps the descriptor from ENVCHANGE 8 and sends it with every later request until ROLLBACK (ENVCHANGE 10)",
  },
];

export const readOnlyTextRule: TsqlRule<TdsStatement> = {
  id: "generic-sql.read-cannot-end-transaction",
  kind: "value-set",
  number: 50000,
  class: 16,
  description:
    "A merchant read never holds COMMIT or ROLLBACK (anywhere, literals too): the one way out of the transaction that undoes its writes.",
  sources: [
    {
      kind: "vendor-doc",
      ref: "https://learn.microsoft.com/en-us/sql/t-sql/language-elements/commit-transaction-transact-sql",
      says: "COMMIT TRANSACTION makes every change since the outermost BEGIN TRANSACTION permanent; a later ROLLBACK cannot undo it",
    },
    {
      kind: "vendor-doc",
      ref: "https://learn.microsoft.com/en-us/sql/t-sql/language-elements/rollback-transaction-transact-sql",
      says: "ROLLBACK inside a statement ends the outer transaction too: the statements after it run outside any transaction",
    },
  ],
  check: (s) => {
    if (!isMerchantRead(s.text)) return [];
    const ends = TRANSACTION_END.exec(s.text);
    return ends ? [`a read holds ${ends[0].toUpperCase()}: it could end the transaction that undoes it`] : [];
  },
};

export const readInTransactionRule: TsqlRule<TdsStatement> = {
  id: "generic-sql.read-in-rolled-back-transaction",
  kind: "required-sequence",
  number: 50000,
  class: 16,
  description:
    "A merchant read is sent inside a transaction begun before it (its request carries the descriptor); the suite also holds every such transaction to a ROLLBACK.",
  sources: TRANSACTION_SOURCES,
  check: (s) =>
    isMerchantRead(s.text) && !s.transaction
      ? ["a merchant read sent outside a transaction (nothing would undo a write it carries)"]
      : [],
};

/** Every rule the generic SQL connector's statements keep on SQL Server, in the order they are checked. */
export const GENERIC_SQL_MSSQL_RULES: readonly TsqlRule<TdsStatement>[] = [
  ...TSQL_DIALECT_RULES,
  tsqlDeclaredParametersRule,
  readOnlyTextRule,
  readInTransactionRule,
];
