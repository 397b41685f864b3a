import base from "../packages/einvoice/vitest.config.ts";
import { forMutation } from "./vitest.shared.ts";

export default forMutation("packages/einvoice", base);
