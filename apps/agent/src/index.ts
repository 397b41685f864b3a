export { AGENT_VERSION, AgentClient, type AgentClientOptions, connectUrl, pair } from "./client.ts";
export { performHttp } from "./relay.ts";
export { classifyMssqlError, createMssqlExecutor, type MssqlExecutor } from "./sql/mssql.ts";
export { type AgentConfig, type AgentStatus, AgentStore } from "./store.ts";
