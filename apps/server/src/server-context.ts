import type { WithEngine } from "./modules/jobs/engine-host.ts";
import type { WithSandbox } from "./modules/sandbox/hub.ts";
import type { AppContext } from "./platform/context.ts";

/**
 * The whole server's context: the platform's parts, plus the two rooms other modules reach through it (the
 * engine and the built-in sandboxes). Only the server's top level (bootstrap, app) holds this type; a module
 * that needs one of the two asks for `AppContext & WithEngine` (engine-host) or `& WithSandbox` (sandbox hub), so the platform never
 * imports a module and no module imports the whole server.
 */
export type ServerContext = AppContext & WithEngine & WithSandbox;
