export {
  AGENT_VERSION,
  AgentClient,
  type AgentClientOptions,
  connectUrl,
  pair,
  proxyAgentFor,
} from "./client.ts";
export { FolderWatcher } from "./folders.ts";
export { performHttp } from "./relay.ts";
export { classifyMssqlError, createMssqlExecutor, type MssqlExecutor } from "./sql/mssql.ts";
export { type AgentConfig, type AgentFolder, type AgentStatus, AgentStore } from "./store.ts";
