/** Carries out the SQL statements the server relays, against the databases inside this network. */

import type { SqlTransport } from "@ep/connectors";
import type { AgentSqlAnswerFrame, AgentSqlRequestFrame, AgentSqlTarget } from "@ep/contracts";
import { codeOf } from "../relay.ts";
import type { AgentStore } from "../store.ts";

type SpelledTarget = Extract<AgentSqlTarget, { dialect: string }>;
type SqlFailure = Extract<AgentSqlAnswerFrame, { type: "sql-error" }>;
type Failure = Pick<SqlFailure, "kind" | "code" | "message">;

interface Executor extends SqlTransport {
  close(): Promise<void>;
}

const UNREACHABLE = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ECONNRESET",
  "EAI_AGAIN",
]);
/** Firebird status codes: login refused (isc_login), and the statement's own errors. */
const FIREBIRD_LOGIN = 335544472;
/**
 * A row another transaction holds: lock time-out on wait (isc_lock_timeout), lock conflict on no wait
 * (isc_lock_conflict), deadlock / update conflict (isc_deadlock, isc_update_conflict). The statement's
 * transaction was rolled back: transient, and nothing applied.
 */
const FIREBIRD_LOCK = new Set([335544878, 335544345, 335544336, 335544451]);

function classifyFirebirdError(e: unknown): Failure {
  const code = codeOf(e);
  const gds = (e as { gdscode?: number }).gdscode;
  const message = e instanceof Error ? e.message : String(e);
  if (code === "ETIMEDOUT") return { kind: "timeout", message, code };
  if (code && UNREACHABLE.has(code)) return { kind: "unreachable", message, code };
  if (gds === FIREBIRD_LOGIN || /user name and password/i.test(message))
    return { kind: "auth", message, code: String(gds ?? "") };
  if (gds !== undefined && FIREBIRD_LOCK.has(gds)) return { kind: "lock", message, code: String(gds) };
  return { kind: "statement", message, code: gds === undefined ? code : String(gds) };
}

type Driver = { create: (target: SpelledTarget) => Executor; classify: (e: unknown) => Failure };
/**
 * Each driver loads on the first statement for its dialect: most agents relay HTTP only (the demo's
 * Mikro among them), and mssql with tedious and its Azure auth is a large part of a loaded agent.
 */
const DRIVERS: Record<SpelledTarget["dialect"], () => Promise<Driver>> = {
  firebird: async () => ({
    create: (await import("./firebird.ts")).createFirebirdExecutor,
    classify: classifyFirebirdError,
  }),
  mssql: async () => {
    const { createMssqlExecutor, classifyMssqlError } = await import("./mssql.ts");
    return { create: createMssqlExecutor, classify: classifyMssqlError };
  },
};

/**
 * One executor (connection pool) per database. A target named by alias is read from the agent's own
 * `databases.json`, so its password never leaves this machine.
 */
export class SqlRunner {
  private readonly executors = new Map<string, Executor>();

  constructor(private readonly store: AgentStore) {}

  async perform(frame: AgentSqlRequestFrame): Promise<AgentSqlAnswerFrame> {
    const fail = (kind: SqlFailure["kind"], message: string, code?: string): SqlFailure => ({
      type: "sql-error",
      id: frame.id,
      kind,
      code,
      message,
    });
    const target = this.resolve(frame.target);
    if (!target)
      return fail("config", `no database named "${(frame.target as { alias: string }).alias}" on this agent`);
    const load = DRIVERS[target.dialect];
    if (!load) return fail("config", `this agent version has no driver for ${target.dialect}`);
    const driver = await load();
    const executor = this.executorFor(target, driver.create);
    try {
      const result = await executor.query(
        { text: frame.text, params: frame.params, ...(frame.readOnly ? { readOnly: true } : {}) },
        { maxRows: frame.maxRows, timeoutMs: frame.timeoutMs },
      );
      return { type: "sql-result", id: frame.id, ...result };
    } catch (e) {
      const f = driver.classify(e);
      return fail(f.kind, f.message, f.code);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.executors.values()].map((e) => e.close().catch(() => undefined)));
    this.executors.clear();
  }

  private resolve(target: AgentSqlTarget): SpelledTarget | undefined {
    if ("dialect" in target) return target;
    return this.store.loadDatabases()[target.alias];
  }

  private executorFor(target: SpelledTarget, create: (target: SpelledTarget) => Executor): Executor {
    // The password is part of the key: a password changed in databases.json opens a new pool.
    const key = JSON.stringify([
      target.dialect,
      target.host,
      target.port ?? "",
      target.database,
      target.user,
      target.password,
    ]);
    let executor = this.executors.get(key);
    if (!executor) {
      executor = create(target);
      this.executors.set(key, executor);
    }
    return executor;
  }
}
