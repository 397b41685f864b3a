import type { ErpConnectorModule } from "../sdk/connector-module";
import { createMikroConnector } from "./connector";
import { mikroDescriptor } from "./descriptor";

export {
  classifyMikroResponse,
  createMikroConnector,
  MikroConnector,
  mikroDailyPassword,
  sqlString,
} from "./connector";

import { mikroSandbox } from "./sandbox";

export { mikroDescriptor } from "./descriptor";
export * from "./emulator/server";
export { runSelect, SqlError } from "./emulator/sql";
export { MikroState } from "./emulator/state";

export const mikroModule: ErpConnectorModule = {
  sandbox: mikroSandbox,
  descriptor: mikroDescriptor,
  create: createMikroConnector,
};
