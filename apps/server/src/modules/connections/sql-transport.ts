import type { SqlTarget, SqlTransport } from "@ep/connectors";
import type { AppContext } from "../../platform/context.ts";
import { agentHubOf } from "../agents/service.ts";

/** Where a connection's database is, from its stored fields: the agent's alias (the password stays there). */
export function sqlTargetOf(credentials: Record<string, string | undefined>): SqlTarget | undefined {
  const alias = credentials.sqlAlias?.trim();
  return alias ? { alias } : undefined;
}

/**
 * The SQL seam of a connection: its database reached through the connection's on-site agent (the hub's
 * `sqlFor`, the relay of the agent's SQL executors). No agent or no database alias: none, and the
 * connector says in Turkish what is missing. The server never opens a customer's database itself.
 */
export function sqlTransportOf(
  ctx: Pick<AppContext, "config" | "database">,
  agentId: number | null | undefined,
  credentials: Record<string, string | undefined>,
  /** The stored connection: its statements go through whichever of its agents is online. */
  connectionId?: number,
): SqlTransport | undefined {
  const target = sqlTargetOf(credentials);
  if (!agentId || !target) return undefined;
  const dialect = credentials.sqlDialect === "mssql" ? "mssql" : "firebird";
  return agentHubOf(ctx).sqlFor(agentId, target, dialect, connectionId);
}
