import base from "../packages/connectors/vitest.config.ts";
import { forMutation } from "./vitest.shared.ts";

export default forMutation("packages/connectors", base);
