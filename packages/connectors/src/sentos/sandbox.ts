import { shopSandbox } from "../testing/sandbox";
import { startSentosEmulator } from "./emulator/server";

// Sentos's published limits (12 per minute, the same GET twice a minute) hold in the sandbox too.
export const sentosSandbox = shopSandbox(
  "sentos",
  (baseUrl, secret) => ({
    apiUrl: `${baseUrl}/api`,
    apiKey: secret("apiKey"),
    apiSecret: secret("apiSecret"),
  }),
  startSentosEmulator,
  (c) => ({
    apiKey: c.apiKey,
    apiSecret: c.apiSecret,
  }),
);
