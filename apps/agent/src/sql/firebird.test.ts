/**
 * The agent's Firebird executor against the real local Firebird 3 server, while another connection (a
 * Wolvox user with a record open) holds an uncommitted change: reads answer at once with the committed
 * value, a write waits its lock bound and fails as a transient `lock` failure, and goes through once the
 * holder has saved.
 */

import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { firebirdSysdbaPassword } from "@ep/connectors";
import type { AgentSqlRequestFrame } from "@ep/contracts";
import { isReadOnlyStatement } from "@ep/contracts/sql-statement";
import Firebird from "node-firebird";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AgentStore } from "../store.ts";
import { SqlRunner } from "./runner.ts";

const password = firebirdSysdbaPassword();

describe.skipIf(!password)("Firebird executor beside a user holding a lock", () => {
  const dir = mkdtempSync(join(tmpdir(), "ep-agent-fb-"));
  const target = {
    dialect: "firebird" as const,
    host: "127.0.0.1",
    port: 3050,
    database: join(dir, "LOCKS.FDB"),
    user: "SYSDBA",
    password: password ?? "",
  };
  const home = mkdtempSync(join(tmpdir(), "ep-agent-fb-home-"));
  const runner = new SqlRunner(new AgentStore(home));
  let holder: Firebird.Database;
  let n = 0;
  // The statement's bound (4 s) puts the executor's lock wait at 3 s: the database answers first.
  const statement = (text: string, params: AgentSqlRequestFrame["params"]): AgentSqlRequestFrame => ({
    type: "sql",
    id: `s${++n}`,
    target,
    text,
    params,
    timeoutMs: 4000,
  });

  beforeAll(async () => {
    // The Firebird server runs as its own user: it creates the database file in this directory.
    chmodSync(dir, 0o777);
    const db = await Firebird.attachOrCreateAsync({ ...target, encoding: "UTF8" });
    await db.queryAsync("CREATE TABLE STOK (BLKODU INTEGER NOT NULL PRIMARY KEY, MIKTAR INTEGER)");
    await db.queryAsync("INSERT INTO STOK (BLKODU, MIKTAR) VALUES (1, 5)");
    await db.detachAsync();
    holder = await Firebird.attachAsync({ ...target, encoding: "UTF8" });
  });

  afterAll(async () => {
    await runner.close();
    await holder?.detachAsync().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it("tells reads from writes", () => {
    expect(isReadOnlyStatement("  /* stok */\n-- sayfa\nSELECT FIRST 10 * FROM STOK")).toBe(true);
    expect(isReadOnlyStatement("WITH X AS (SELECT 1 A FROM RDB$DATABASE) SELECT * FROM X")).toBe(true);
    expect(isReadOnlyStatement("SELECT * FROM STOK WHERE BLKODU = 1 WITH LOCK")).toBe(false);
    expect(isReadOnlyStatement("EXECUTE BLOCK AS BEGIN END")).toBe(false);
    expect(isReadOnlyStatement("UPDATE STOK SET MIKTAR = 1")).toBe(false);
  });

  it("reads the committed value past an uncommitted update; a write waits its bound, fails as lock, then succeeds", async () => {
    const held = await holder.startTransactionAsync();
    await held.queryAsync("UPDATE STOK SET MIKTAR = 99 WHERE BLKODU = 1");

    // With Firebird's default transaction this read would wait for the holder until the 4 s timer.
    const read = await runner.perform(statement("SELECT MIKTAR FROM STOK WHERE BLKODU = @id", { id: 1 }));
    expect(read).toMatchObject({ type: "sql-result", rows: [{ MIKTAR: 5 }] });

    const write = await runner.perform(
      statement("UPDATE STOK SET MIKTAR = @q WHERE BLKODU = @id", { q: 7, id: 1 }),
    );
    // The database's answer when the lock wait ran out (Firebird 3 reports it as isc_deadlock, "read
    // conflicts with concurrent update"), before the statement timer (that would be kind "timeout").
    expect(write).toMatchObject({ type: "sql-error", kind: "lock", code: "335544336" });
    expect((write as { message: string }).message).toMatch(/concurrent update/i);

    await held.commitAsync();
    const again = await runner.perform(
      statement("UPDATE STOK SET MIKTAR = @q WHERE BLKODU = @id", { q: 7, id: 1 }),
    );
    expect(again).toMatchObject({ type: "sql-result" });
    const after = await runner.perform(statement("SELECT MIKTAR FROM STOK WHERE BLKODU = @id", { id: 1 }));
    expect(after).toMatchObject({ type: "sql-result", rows: [{ MIKTAR: 7 }] });
  });
});

/**
 * A merchant's read (`readOnly` frame) that carries a write, sent to the runner directly as if the
 * server's checker had missed it: Firebird refuses it in the read-only transaction and nothing lasts.
 * The same statements as the driver's own writes do apply (the guard is what stops them). Generators
 * are the exception the checker must catch: GEN_ID / NEXT VALUE FOR advance even in a read-only
 * transaction that is rolled back.
 */
describe.skipIf(!password)("Firebird executor: a merchant read cannot write", () => {
  const dir = mkdtempSync(join(tmpdir(), "ep-agent-fb-ro-"));
  const target = {
    dialect: "firebird" as const,
    host: "127.0.0.1",
    port: 3050,
    database: join(dir, "READONLY.FDB"),
    user: "SYSDBA",
    password: password ?? "",
  };
  const home = mkdtempSync(join(tmpdir(), "ep-agent-fb-ro-home-"));
  const runner = new SqlRunner(new AgentStore(home));
  let n = 0;
  const frame = (text: string, readOnly: boolean): AgentSqlRequestFrame => ({
    type: "sql",
    id: `r${++n}`,
    target,
    text,
    timeoutMs: 5000,
    ...(readOnly ? { readOnly: true } : {}),
  });
  /** The first row of an answer (none for a failure). */
  const firstRow = async (f: AgentSqlRequestFrame) => {
    const answer = await runner.perform(f);
    return answer.type === "sql-result" ? answer.rows[0] : undefined;
  };
  const count = () => firstRow(frame("SELECT COUNT(*) AS N, SUM(MIKTAR) AS M FROM STOK", false));

  beforeAll(async () => {
    chmodSync(dir, 0o777);
    const db = await Firebird.attachOrCreateAsync({ ...target, encoding: "UTF8" });
    await db.queryAsync("CREATE TABLE STOK (BLKODU INTEGER NOT NULL PRIMARY KEY, MIKTAR INTEGER)");
    await db.queryAsync("CREATE SEQUENCE GEN_STOK");
    await db.queryAsync(
      "CREATE PROCEDURE STOK_YAZ RETURNS (N INTEGER) AS BEGIN INSERT INTO STOK VALUES (100, 1); N = 1; SUSPEND; END",
    );
    await db.detachAsync();
    const seed = await Firebird.attachAsync({ ...target, encoding: "UTF8" });
    await seed.queryAsync("INSERT INTO STOK (BLKODU, MIKTAR) VALUES (1, 5)");
    await seed.queryAsync("INSERT INTO STOK (BLKODU, MIKTAR) VALUES (2, 7)");
    await seed.detachAsync();
  });

  afterAll(async () => {
    await runner.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });

  it("refuses every write a read carries and keeps the rows as they were", async () => {
    const writes = [
      "DELETE FROM STOK",
      "UPDATE STOK SET MIKTAR = 0",
      "INSERT INTO STOK (BLKODU, MIKTAR) VALUES (3, 1)",
      "UPDATE OR INSERT INTO STOK (BLKODU, MIKTAR) VALUES (1, 0) MATCHING (BLKODU)",
      "EXECUTE BLOCK AS BEGIN DELETE FROM STOK; END",
      "SELECT N FROM STOK_YAZ",
      "WITH x AS (SELECT BLKODU FROM STOK) SELECT * FROM STOK WHERE BLKODU IN (SELECT BLKODU FROM x) WITH LOCK",
    ];
    for (const text of writes) {
      const answer = await runner.perform(frame(text, true));
      expect(answer, text).toMatchObject({ type: "sql-error", kind: "statement" });
      expect(await count(), text).toEqual({ N: 2, M: 12 });
    }
    // A read answers as before.
    expect(await runner.perform(frame("SELECT MIKTAR FROM STOK WHERE BLKODU = 1", true))).toMatchObject({
      type: "sql-result",
      rows: [{ MIKTAR: 5 }],
    });
  });

  it("applies the same statement sent as the driver's own write (the guard is what stops it)", async () => {
    const write = frame("UPDATE STOK SET MIKTAR = MIKTAR + 1 WHERE BLKODU = 2", false);
    expect(await runner.perform(write)).toMatchObject({ type: "sql-result" });
    expect(await count()).toEqual({ N: 2, M: 13 });
    await runner.perform(frame("UPDATE STOK SET MIKTAR = 7 WHERE BLKODU = 2", false));
  });

  it("cannot keep a generator from advancing: the checker refuses GEN_ID and NEXT VALUE FOR", async () => {
    const next = async () =>
      (await firstRow(frame("SELECT GEN_ID(GEN_STOK, 1) AS V FROM RDB$DATABASE", true)))?.V;
    expect(await next()).toBe(1);
    expect(await next()).toBe(2);
  });
});
