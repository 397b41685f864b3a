/** Carries out the SQL statements the server relays, against the databases inside this network. */

import type { AgentSqlAnswerFrame, AgentSqlRequestFrame, AgentSqlTarget } from "@ep/contracts";
import { codeOf } from "../relay.ts";
import type { AgentStore } from "../store.ts";
import { createFirebirdExecutor, type FirebirdExecutor } from "./firebird.ts";

type SpelledTarget = Extract<AgentSqlTarget, { dialect: string }>;
type SqlFailure = Extract<AgentSqlAnswerFrame, { type: "sql-error" }>;

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
 * One executor (connection pool) per database. A target named by alias is read from the agent's own
 * `databases.json`, so its password never leaves this machine.
 */
export class SqlRunner {
  private readonly executors = new Map<string, FirebirdExecutor>();

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
    if (target.dialect !== "firebird") {
      return fail("config", `this agent version has no driver for ${target.dialect}`);
    }
    const executor = this.executorFor(target);
    try {
      const result = await executor.query(
        { text: frame.text, params: frame.params },
        { maxRows: frame.maxRows, timeoutMs: frame.timeoutMs },
      );
      return { type: "sql-result", id: frame.id, ...result };
    } catch (e) {
      const code = codeOf(e);
      const gds = (e as { gdscode?: number }).gdscode;
      const text = e instanceof Error ? e.message : String(e);
      if (code === "ETIMEDOUT") return fail("timeout", text, code);
      if (code && UNREACHABLE.has(code)) return fail("unreachable", text, code);
      if (gds === FIREBIRD_LOGIN || /user name and password/i.test(text))
        return fail("auth", text, String(gds ?? ""));
      return fail("statement", text, gds === undefined ? code : String(gds));
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

  private executorFor(target: SpelledTarget): FirebirdExecutor {
    const key = `${target.dialect}|${target.host}|${target.port ?? ""}|${target.database}|${target.user}`;
    let executor = this.executors.get(key);
    if (!executor) {
      executor = createFirebirdExecutor(target);
      this.executors.set(key, executor);
    }
    return executor;
  }
}
