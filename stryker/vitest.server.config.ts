import base from "../apps/server/vitest.config.ts";
import { forMutation } from "./vitest.shared.ts";

export default forMutation("apps/server", base);
