// The signed-out screens' groups of the shared Turkish catalogue (vite.config.ts, `signedOutMessages`).
declare module "virtual:signed-out-messages" {
  import type { MessageCatalog } from "@ep/contracts";

  const groups: Pick<MessageCatalog, "validation" | "api" | "request">;
  export default groups;
}
