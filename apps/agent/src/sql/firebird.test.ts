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
