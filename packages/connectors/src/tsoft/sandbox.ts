import { shopSandbox } from "../testing/sandbox";
import { startTsoftEmulator } from "./emulator/server";

export const tsoftSandbox = shopSandbox(
  "tsoft",
  (baseUrl, secret) => ({
    storeUrl: baseUrl,
    apiUser: "entegrasyon",
    apiPass: secret("apiPass"),
  }),
  startTsoftEmulator,
  (c) => ({
    apiUser: c.apiUser,
    apiPass: c.apiPass,
  }),
);
