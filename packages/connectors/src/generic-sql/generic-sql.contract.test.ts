/**
 * The generic SQL connector on SQL Server: the agent's real `mssql`/tedious executor against the TDS
 * responder, whose T-SQL judge refuses what SQL Server refuses in a derived table (ORDER BY without
 * TOP/OFFSET/FOR XML: error 1033; WITH: error 156). Every SELECT the checker accepts must page as valid
 * T-SQL: a CTE, its own ORDER BY, TOP with ORDER BY, OFFSET … FETCH, a UNION, a window's ORDER BY. Every read
 * runs in a transaction the agent rolls back.
 */

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMssqlExecutor, type MssqlExecutor } from "../../../../apps/agent/src/sql/mssql";
import type { Product } from "../sdk/model";
import { InMemoryRateLimitStore } from "../sdk/rate-limit";
import {
  applyRuntimeRules,
  rulesMissingFrom,
  unsourcedRules,
  violationMessages,
} from "../testing/runtime-rules";
import { judgeTsql, TSQL_ORDER_BY_IN_DERIVED, TSQL_WITH_IN_DERIVED } from "../testing/sql-judge";
import { startTdsServer, type TdsServer } from "../testing/tds-server";
import type { GenericSqlConfig } from "./config";
import { GenericSqlConnector } from "./connector";
import { genericSqlDescriptor } from "./descriptor";
import { GENERIC_SQL_MSSQL_RULES } from "./judge/rules";

const login = { user: "entegrasyon", password: "Gizli.Parola-1", database: "LOGODB" };
/** Logo's items, as the responder's table: LOGICALREF is the key the pages run on. */
const ITEMS = Array.from({ length: 7 }, (_, i) => ({
  LOGICALREF: i + 1,
  CODE: `KLM-${String(7 - i).padStart(3, "0")}`,
  NAME: `Kalem ${i + 1}`,
}));

/** Merchant SELECTs the checker accepts, each with what SQL Server refuses when it is wrapped naively. */
const QUERIES: Array<[string, string]> = [
  ["plain", "SELECT LOGICALREF, CODE, NAME FROM LG_001_ITEMS"],
  ["own ORDER BY", "SELECT LOGICALREF, CODE, NAME FROM LG_001_ITEMS ORDER BY CODE"],
  [
    "CTE",
    "WITH I AS (SELECT LOGICALREF, CODE, NAME FROM LG_001_ITEMS WHERE ACTIVE = 0) SELECT LOGICALREF, CODE, NAME FROM I",
  ],
  [
    "CTE and ORDER BY, comment and trailing semicolon",
    "-- Logo malzemeleri\nWITH I AS (SELECT LOGICALREF, CODE, NAME FROM LG_001_ITEMS) SELECT LOGICALREF, CODE, NAME FROM I ORDER BY NAME DESC;",
  ],
  ["TOP with ORDER BY", "SELECT TOP 100 LOGICALREF, CODE, NAME FROM LG_001_ITEMS ORDER BY CODE"],
  [
    "OFFSET … FETCH",
    "SELECT LOGICALREF, CODE, NAME FROM LG_001_ITEMS ORDER BY LOGICALREF OFFSET 0 ROWS FETCH NEXT 1000 ROWS ONLY",
  ],
  [
    "UNION with ORDER BY",
    "SELECT LOGICALREF, CODE, NAME FROM LG_001_ITEMS WHERE ACTIVE = 0 UNION SELECT LOGICALREF, CODE, NAME FROM LG_001_ITEMS WHERE ACTIVE = 1 ORDER BY CODE",
  ],
  [
    "window ORDER BY and a literal with ORDER BY in it",
    "SELECT LOGICALREF, CODE, NAME, ROW_NUMBER() OVER (ORDER BY CODE) AS SIRA, 'ORDER BY' AS NOT_ FROM LG_001_ITEMS ORDER BY SIRA",
  ],
];

let tds: TdsServer;
let executor: MssqlExecutor;
/** Texts the refusal test sends past the connector (left out of the connector's tally). */
const refusalTexts = new Set<string>();

function connector(sql: string): GenericSqlConnector {
  const config: GenericSqlConfig = {
    products: { sql, columns: { sku: "CODE", name: "NAME" }, keyColumn: "LOGICALREF" },
    pageSize: 3,
  };
  return new GenericSqlConnector(
    genericSqlDescriptor("zirve"),
    { sqlDialect: "mssql", sqlConfig: JSON.stringify(config) },
    { companyId: "1", rateLimitStore: new InMemoryRateLimitStore(), sql: executor },
  );
}

describe("generic SQL connector paging on SQL Server (TDS judge)", () => {
  beforeAll(async () => {
    tds = await startTdsServer({
      ...login,
      rules: GENERIC_SQL_MSSQL_RULES,
      // The responder plays the table: rows after @after, up to the page's TOP (n), in key order.
      answer: (text, params) => {
        const top = Number(/TOP \((\d+)\)/.exec(text)?.[1] ?? ITEMS.length);
        const after = typeof params.after === "number" ? params.after : 0;
        return {
          columns: [
            { name: "LOGICALREF", type: "int" },
            { name: "CODE", type: "nvarchar" },
            { name: "NAME", type: "nvarchar" },
          ],
          rows: ITEMS.filter((r) => r.LOGICALREF > after).slice(0, top),
        };
      },
    });
    executor = createMssqlExecutor({ dialect: "mssql", host: "127.0.0.1", port: tds.port, ...login });
  });

  afterAll(async () => {
    await executor?.close();
    await tds?.close();
    // Conformance: every statement the connector sent, judged by the T-SQL judge and the runtime rules
    // (the refusal tests below send theirs past the connector, and are not counted).
    const sent = tds.statements.filter((s) => !refusalTexts.has(s.text));
    const rejected = sent.flatMap((s) => [
      ...s.verdict.errors,
      ...violationMessages(applyRuntimeRules(GENERIC_SQL_MSSQL_RULES, s)),
    ]);
    const reads = new Set(sent.map((s) => s.transaction));
    const committed = tds.transactions.filter((t) => t.op === "commit" && reads.has(t.transaction));
    console.log(
      `generic-sql conformance: ${sent.length} statements, ${GENERIC_SQL_MSSQL_RULES.length} runtime rules, ${rejected.length} rejected, ${tds.ruleRefusals.length - refusalTexts.size} refused by the responder's rules`,
    );
    expect(rejected).toEqual([]);
    expect(committed).toEqual([]);
    expect(sent.length).toBeGreaterThan(20);
  });

  it("the judge refuses what SQL Server refuses in a derived table", () => {
    expect(
      judgeTsql("SELECT TOP (3) * FROM (SELECT CODE FROM LG_001_ITEMS ORDER BY CODE) AS q ORDER BY q.CODE"),
    ).toMatchObject({ ok: false, number: 1033, errors: [TSQL_ORDER_BY_IN_DERIVED] });
    expect(
      judgeTsql(
        "SELECT TOP (3) * FROM (WITH I AS (SELECT CODE FROM LG_001_ITEMS) SELECT CODE FROM I) AS q ORDER BY q.CODE",
      ),
    ).toMatchObject({ ok: false, number: 156, errors: [TSQL_WITH_IN_DERIVED] });
    // With TOP or OFFSET the ORDER BY is allowed; at the top level always.
    expect(judgeTsql("SELECT * FROM (SELECT TOP 5 CODE FROM LG_001_ITEMS ORDER BY CODE) AS q").ok).toBe(true);
    expect(judgeTsql("SELECT CODE FROM LG_001_ITEMS ORDER BY CODE").ok).toBe(true);
  });

  for (const [label, sql] of QUERIES) {
    it(`pages every row once: ${label}`, async () => {
      const from = tds.statements.length;
      const seen: Product[] = [];
      let token: string | undefined;
      let pages = 0;
      do {
        const page = await connector(sql).listProducts({ pageToken: token });
        seen.push(...page.items);
        token = page.nextPageToken;
        pages++;
      } while (token && pages < 10);
      const sent = tds.statements.slice(from);
      expect(sent.filter((s) => !s.verdict.ok).map((s) => [s.text, s.verdict.errors])).toEqual([]);
      expect(seen.map((p) => p.sku)).toEqual(ITEMS.map((r) => r.CODE));
      expect(pages).toBe(3);
      // Each page ran inside a transaction the agent rolled back.
      expect(sent.every((s) => s.transaction !== undefined)).toBe(true);
    });
  }

  it("the responder refuses what the runtime rules refuse, with SQL Server's error number", async () => {
    const refusedWith = async (text: string, readOnly: boolean) => {
      refusalTexts.add(text);
      const error = await executor.query({ text, readOnly }).then(
        () => undefined,
        (e: unknown) => e as { number?: number; message?: string },
      );
      return { number: error?.number ?? error, rule: tds.ruleRefusals.at(-1)?.refusedBy?.rule };
    };
    // Sent as an order write (no transaction), a read breaks the read-only guard.
    expect(await refusedWith("SELECT CODE FROM LG_001_ITEMS", false)).toEqual({
      number: 50000,
      rule: "generic-sql.read-in-rolled-back-transaction",
    });
    expect(await refusedWith("SELECT CODE, 'COMMIT' AS NOT_ FROM LG_001_ITEMS", false)).toEqual({
      number: 50000,
      rule: "generic-sql.read-cannot-end-transaction",
    });
    expect(tds.ruleRefusals).toHaveLength(refusalTexts.size);
    // A parameter the text uses but the call never declares is SQL Server's Msg 137 (the agent's executor
    // cannot send one: it refuses a text whose parameter has no value).
    const page = tds.statements.find((s) => "after" in s.declared);
    expect(page).toBeDefined();
    const undeclared = { ...page!, declared: {} };
    expect(applyRuntimeRules(GENERIC_SQL_MSSQL_RULES, undeclared)).toEqual([
      expect.objectContaining({
        rule: "mssql.declared-parameters",
        problems: ['137: Must declare the scalar variable "@after".'],
      }),
    ]);
  });

  it("VERIFIED.md lists every runtime rule, each with its sources", () => {
    const verified = readFileSync(new URL("./VERIFIED.md", import.meta.url), "utf8");
    expect(rulesMissingFrom(verified, GENERIC_SQL_MSSQL_RULES)).toEqual([]);
    expect(unsourcedRules(GENERIC_SQL_MSSQL_RULES)).toEqual([]);
  });

  it("previews the merchant's text as written (a CTE with its own ORDER BY is valid at the top level)", async () => {
    const from = tds.statements.length;
    const preview = await connector(QUERIES[3]?.[1] ?? "").preview("products", 2);
    expect(preview.rows).toHaveLength(2);
    expect(tds.statements.slice(from).map((s) => s.verdict.ok)).toEqual([true]);
  });
});
