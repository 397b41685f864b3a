/**
 * The agent's SQL Server executor with the real `mssql`/`tedious@19` client against the canned TDS
 * responder (SQL Server cannot run here): parameter encoding per type, row decoding, the row cap
 * (ATTENTION), timeouts, login and statement failures, a lost connection, and the pool's reuse.
 */

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { startTdsServer, type TdsAnswerHandler, type TdsServer } from "@ep/connectors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentStore } from "../store.ts";
import { createMssqlExecutor, type MssqlExecutor } from "./mssql.ts";
import { SqlRunner } from "./runner.ts";

const login = { user: "entegrasyon", password: "Gizli.Parola-1", database: "LOGODB" };
const cli = resolve(dirname(fileURLToPath(import.meta.url)), "../cli.ts");

let answer: TdsAnswerHandler = () => ({ columns: [], rows: [] });
let tds: TdsServer;
let home: string;
let executor: MssqlExecutor;
let runner: SqlRunner;

const target = () => ({ dialect: "mssql" as const, host: "127.0.0.1", port: tds.port, ...login });
const frame = (text: string, extra: Record<string, unknown> = {}) => ({
  type: "sql" as const,
  id: `q${Math.random()}`,
  target: { alias: "logo" },
  text,
  timeoutMs: 5_000,
  ...extra,
});

describe("SQL Server executor (mssql + tedious@19) against the canned TDS responder", () => {
  beforeAll(async () => {
    tds = await startTdsServer({ ...login, answer: (text, params, info) => answer(text, params, info) });
    executor = createMssqlExecutor(target());
    home = mkdtempSync(join(tmpdir(), "ep-agent-mssql-"));
    const store = new AgentStore(home);
    store.saveDatabases({ logo: target(), wrongPassword: { ...target(), password: "yanlis" } });
    runner = new SqlRunner(store);
  });

  afterAll(async () => {
    await executor?.close();
    await runner?.close();
    await tds?.close();
    rmSync(home, { recursive: true, force: true });
  });

  it("binds each parameter type as a typed sp_executesql input and decodes each column type", async () => {
    let seen: {
      params: Record<string, unknown>;
      wire: Record<string, string>;
      declared: Record<string, string>;
    } = { params: {}, wire: {}, declared: {} };
    answer = (_text, params, info) => {
      seen = { params, wire: info.wireTypes, declared: info.declared };
      return {
        columns: [
          { name: "LOGICALREF", type: "int" },
          { name: "CODE", type: "nvarchar" },
          { name: "PRICE", type: "decimal", scale: 2 },
          { name: "BIGREF", type: "bigint" },
          { name: "CAPIBLOCK_CREADEDDATE", type: "datetime" },
          { name: "ACTIVE", type: "bit" },
        ],
        rows: [
          [7, "ÇİĞ-ŞÜÖ ı", "1234.56", 9_007_199_254_740_993n, new Date("2026-11-26T10:15:30.500Z"), true],
          {
            LOGICALREF: 8,
            CODE: null,
            PRICE: null,
            BIGREF: null,
            CAPIBLOCK_CREADEDDATE: null,
            ACTIVE: false,
          },
        ],
      };
    };
    const result = await executor.query({
      text:
        "SELECT LOGICALREF, CODE, PRICE, BIGREF, CAPIBLOCK_CREADEDDATE, ACTIVE FROM LG_001_ITEMS " +
        "WHERE LOGICALREF > @ref AND BIGREF < @big AND CODE = @code AND PRICE = @price AND CAPIBLOCK_CREADEDDATE > @since " +
        "AND ACTIVE = @active AND SPECODE = @none AND CAPIBLOCK_MODIFIEDDATE > @asText",
      params: {
        ref: 5,
        big: 2 ** 40,
        code: "Ürün 'tırnak' İ",
        price: 12.345,
        since: new Date("2026-01-02T03:04:05.678Z"),
        active: true,
        none: null,
        asText: "2026-03-04T05:06:07.089Z",
      },
    });
    expect(seen.wire).toEqual({
      ref: "int",
      big: "bigint",
      code: "nvarchar",
      price: "decimal",
      since: "datetime2",
      active: "bit",
      none: "nvarchar",
      asText: "datetime2",
    });
    expect(seen.declared.price).toBe("decimal(38, 3)");
    expect(seen.params).toEqual({
      ref: 5,
      big: BigInt(2 ** 40),
      code: "Ürün 'tırnak' İ",
      price: 12.345,
      since: new Date("2026-01-02T03:04:05.678Z"),
      active: true,
      none: null,
      asText: new Date("2026-03-04T05:06:07.089Z"),
    });
    expect(result.rows).toEqual([
      {
        LOGICALREF: 7,
        CODE: "ÇİĞ-ŞÜÖ ı",
        PRICE: 1234.56,
        BIGREF: "9007199254740993",
        CAPIBLOCK_CREADEDDATE: new Date("2026-11-26T10:15:30.500Z"),
        ACTIVE: true,
      },
      { LOGICALREF: 8, CODE: null, PRICE: null, BIGREF: null, CAPIBLOCK_CREADEDDATE: null, ACTIVE: false },
    ]);
    expect(result.truncated).toBeUndefined();
    expect(tds.judgeFailures).toEqual([]);
  });

  it("carries long texts both ways: nvarchar(max) parameters, statements and answers over many packets", async () => {
    let received: unknown;
    let wire = "";
    answer = (_text, params, info) => {
      received = params.note;
      wire = info.declared.note ?? "";
      return {
        columns: [
          { name: "LOGICALREF", type: "int" },
          { name: "NAME", type: "nvarchar" },
        ],
        rows: Array.from({ length: 300 }, (_, i) => [i, `Ürün açıklaması ${i} `.padEnd(120, "ğ")]),
      };
    };
    const note = "Sipariş notu: çok uzun İçerik ".repeat(200); // 6 000 characters
    const columns = Array.from({ length: 150 }, (_, i) => `CODE AS KOD_${i}`).join(", ");
    const result = await executor.query({
      text: `SELECT LOGICALREF, NAME, ${columns} FROM LG_001_ITEMS WHERE NAME <> @note`,
      params: { note },
    });
    expect(wire).toBe("nvarchar(max)");
    expect(received).toBe(note);
    expect(result.rows).toHaveLength(300);
    expect(result.rows[299]).toEqual({ LOGICALREF: 299, NAME: "Ürün açıklaması 299 ".padEnd(120, "ğ") });
    // The statement alone is more than one 4 096-byte packet in UCS-2.
    expect(Buffer.byteLength(tds.statements.at(-1)?.text ?? "", "ucs2")).toBeGreaterThan(4096);
  });

  it("refuses a parameter the text names but the call does not give, before anything is sent", async () => {
    const before = tds.statements.length;
    await expect(executor.query({ text: "SELECT CODE FROM T WHERE CODE = @missing" })).rejects.toThrow(
      "@missing has no value",
    );
    expect(tds.statements.length).toBe(before);
  });

  it("stops reading at maxRows (the server is told to stop) and the connection stays usable", async () => {
    answer = () => ({
      columns: [{ name: "N", type: "int" }],
      rows: Array.from({ length: 500 }, (_, i) => [i]),
    });
    const attentions = tds.stats.attentions;
    const capped = await executor.query({ text: "SELECT N FROM NUMBERS" }, { maxRows: 10 });
    expect(capped.rows.map((r) => r.N)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(capped.truncated).toBe(true);
    expect(tds.stats.attentions).toBe(attentions + 1);
    const exact = await executor.query({ text: "SELECT N FROM NUMBERS" }, { maxRows: 500 });
    expect(exact.rows).toHaveLength(500);
    expect(exact.truncated).toBeUndefined();
  });

  it("reports the rows an INSERT changed", async () => {
    answer = () => ({ columns: [], rows: [], rowsAffected: 3 });
    const result = await executor.query({
      text: "INSERT INTO SIPARIS (REF, TUTAR) VALUES (@ref, @amount)",
      params: { ref: "SP-1", amount: 10.5 },
    });
    expect(result).toEqual({ rows: [], rowsAffected: 3 });
  });

  it("reuses pooled connections: one login serves many statements", async () => {
    answer = () => ({ columns: [{ name: "X", type: "int" }], rows: [[1]] });
    await executor.query({ text: "SELECT X FROM T" });
    const logins = tds.stats.logins;
    for (let i = 0; i < 5; i++) await executor.query({ text: "SELECT X FROM T" });
    expect(tds.stats.logins).toBe(logins);
  });

  it("through the runner, by alias: rows in the agent's answer frame", async () => {
    answer = () => ({ columns: [{ name: "CODE", type: "nvarchar" }], rows: [["A"], ["B"], ["C"]] });
    const ok = await runner.perform(frame("SELECT CODE FROM LG_001_ITEMS", { maxRows: 2 }));
    expect(ok).toMatchObject({ type: "sql-result", rows: [{ CODE: "A" }, { CODE: "B" }], truncated: true });
  });

  it("a statement the server refuses is a statement failure with the server's message and number", async () => {
    answer = () => {
      throw { number: 208, message: "Invalid object name 'LG_001_NOPE'." };
    };
    const bad = await runner.perform(frame("SELECT CODE FROM LG_001_NOPE"));
    expect(bad).toMatchObject({
      type: "sql-error",
      kind: "statement",
      code: "208",
      message: "Invalid object name 'LG_001_NOPE'.",
    });
  });

  it("a text the T-SQL judge cannot read is refused on the wire and recorded", async () => {
    answer = () => ({ columns: [], rows: [] });
    const failures = tds.judgeFailures.length;
    const bad = await runner.perform(frame("SELEC CODE FROM LG_001_ITEMS"));
    expect(bad).toMatchObject({ type: "sql-error", kind: "statement" });
    expect(tds.judgeFailures.length).toBe(failures + 1);
    expect(tds.judgeFailures.at(-1)?.text).toBe("SELEC CODE FROM LG_001_ITEMS");
  });

  it("no answer in time is a timeout (the server is told to stop), and the next statement runs", async () => {
    answer = () =>
      new Promise((r) => setTimeout(() => r({ columns: [{ name: "X", type: "int" }], rows: [[1]] }), 1_500));
    const slow = await runner.perform(frame("SELECT X FROM SLOW", { timeoutMs: 200 }));
    expect(slow).toMatchObject({ type: "sql-error", kind: "timeout", code: "ETIMEOUT" });
    answer = () => ({ columns: [{ name: "X", type: "int" }], rows: [[2]] });
    const next = await runner.perform(frame("SELECT X FROM T"));
    expect(next).toMatchObject({ type: "sql-result", rows: [{ X: 2 }] });
  });

  it("an aborted statement is cancelled on the server and rejects with the abort reason", async () => {
    answer = () => new Promise(() => undefined);
    const controller = new AbortController();
    const attentions = tds.stats.attentions;
    const pending = executor.query({ text: "SELECT X FROM SLOW" }, { signal: controller.signal });
    for (let i = 0; i < 200 && tds.statements.at(-1)?.text !== "SELECT X FROM SLOW"; i++)
      await new Promise((r) => setTimeout(r, 10));
    controller.abort(new Error("stopped by the caller"));
    await expect(pending).rejects.toThrow("stopped by the caller");
    expect(tds.stats.attentions).toBe(attentions + 1);
    expect(tds.statements.at(-1)?.cancelled).toBe(true);
  });

  it("a connection lost while a statement runs is a timeout (it may have been applied); then it reconnects", async () => {
    answer = () => {
      setImmediate(() => tds.dropConnections());
      return new Promise(() => undefined);
    };
    const lost = await runner.perform(frame("SELECT X FROM T"));
    expect(lost).toMatchObject({ type: "sql-error", kind: "timeout" });
    answer = () => ({ columns: [{ name: "X", type: "int" }], rows: [[3]] });
    const again = await runner.perform(frame("SELECT X FROM T"));
    expect(again).toMatchObject({ type: "sql-result", rows: [{ X: 3 }] });
  });

  it("a refused login is an auth failure with the server's words", async () => {
    const refused = tds.stats.refusedLogins;
    const denied = await runner.perform(frame("SELECT X FROM T", { target: { alias: "wrongPassword" } }));
    expect(denied).toMatchObject({ type: "sql-error", kind: "auth", code: "ELOGIN" });
    expect((denied as { message: string }).message).toContain("Login failed for user 'entegrasyon'");
    expect(tds.stats.refusedLogins).toBeGreaterThan(refused);
    const otherDb = await runner.perform(
      frame("SELECT X FROM T", { target: { ...target(), database: "BASKA" } }) as Parameters<
        SqlRunner["perform"]
      >[0],
    );
    expect(otherDb).toMatchObject({ type: "sql-error", kind: "auth" });
    expect((otherDb as { message: string }).message).toContain('Cannot open database "BASKA"');
  });

  it("a server nobody listens on is unreachable", async () => {
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, "127.0.0.1", () => r()));
    const port = (free.address() as { port: number }).port;
    await new Promise((r) => free.close(r));
    const down = await runner.perform(
      frame("SELECT X FROM T", { target: { ...target(), port } }) as Parameters<SqlRunner["perform"]>[0],
    );
    expect(down).toMatchObject({ type: "sql-error", kind: "unreachable" });
  });

  it("runs a merchant's read inside a transaction that is always rolled back, even a write slipped past the checker", async () => {
    answer = (text) =>
      text.startsWith("SELECT")
        ? { columns: [{ name: "CODE", type: "nvarchar" }], rows: [["A"], ["B"], ["C"]] }
        : { columns: [], rows: [], rowsAffected: 5 };
    const texts = ["SELECT CODE FROM LG_001_ITEMS", "DELETE FROM LG_001_ITEMS"];
    for (const text of texts) {
      const from = tds.statements.length;
      const events = tds.transactions.length;
      const answered = await runner.perform(frame(text, { readOnly: true }));
      expect(answered.type, text).toBe("sql-result");
      const [statement] = tds.statements.slice(from);
      const [begin, end, ...more] = tds.transactions.slice(events);
      // BEGIN, the batch inside it (its ALL_HEADERS name the transaction), then ROLLBACK; no COMMIT.
      expect(begin, text).toMatchObject({ op: "begin", statementsBefore: from });
      expect(statement?.transaction, text).toBe(begin?.transaction);
      expect(end, text).toEqual({
        op: "rollback",
        transaction: begin?.transaction,
        statementsBefore: from + 1,
      });
      expect(more, text).toEqual([]);
    }
    // A text that would end the transaction itself is not sent at all.
    const sent = tds.statements.length;
    for (const text of [
      "DELETE FROM LG_001_ITEMS COMMIT",
      "SELECT 1 AS A ROLLBACK TRAN DELETE FROM LG_001_ITEMS",
    ])
      expect(await runner.perform(frame(text, { readOnly: true })), text).toMatchObject({
        type: "sql-error",
        kind: "statement",
        code: "EREADONLY",
      });
    expect(tds.statements.length).toBe(sent);
    // Cut at the row cap (ATTENTION mid-answer): still rolled back, the connection reused after.
    const events = tds.transactions.length;
    const capped = await runner.perform(
      frame("SELECT CODE FROM LG_001_ITEMS", { readOnly: true, maxRows: 1 }),
    );
    expect(capped).toMatchObject({ type: "sql-result", truncated: true });
    expect(tds.transactions.slice(events).map((e) => e.op)).toEqual(["begin", "rollback"]);
    // The driver's own statements (not merchant reads) run outside any transaction, as before.
    const from = tds.statements.length;
    await runner.perform(frame("SELECT CODE FROM LG_001_ITEMS"));
    expect(tds.statements[from]?.transaction).toBeUndefined();
    expect(tds.transactions.length).toBe(events + 2);
  });

  it("an unknown alias is a config failure", async () => {
    const none = await runner.perform(frame("SELECT X FROM T", { target: { alias: "yok" } }));
    expect(none).toMatchObject({ type: "sql-error", kind: "config" });
  });

  it("`entegrasyon-agent db add … --dialect mssql` saves the database for the runner", () => {
    const cliHome = mkdtempSync(join(tmpdir(), "ep-agent-cli-"));
    try {
      // biome-ignore format: one CLI line
      execFileSync(process.execPath, ["--import", "tsx", cli, "db", "add", "netsis", "--dialect", "mssql", "--host", "10.0.0.5", "--port", "1433", "--database", "NETSIS", "--user", "sa", "--password", "p", "--home", cliHome]);
      expect(new AgentStore(cliHome).loadDatabases()).toEqual({
        netsis: {
          dialect: "mssql",
          host: "10.0.0.5",
          port: 1433,
          database: "NETSIS",
          user: "sa",
          password: "p",
        },
      });
    } finally {
      rmSync(cliHome, { recursive: true, force: true });
    }
  });
});
