import type { ErpConnectorModule } from "../sdk/connector";
import { createMikroConnector } from "./connector";
import { mikroDescriptor } from "./descriptor";

export {
  classifyMikroResponse,
  createMikroConnector,
  MikroConnector,
  mikroDailyPassword,
  sqlString,
} from "./connector";
export { mikroDescriptor } from "./descriptor";
export * from "./emulator/server";
export { runSelect, SqlError } from "./emulator/sql";
export { MikroState } from "./emulator/state";

export const mikroModule: ErpConnectorModule = { descriptor: mikroDescriptor, create: createMikroConnector };
