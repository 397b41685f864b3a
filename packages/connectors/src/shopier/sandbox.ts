import { erpSandbox } from "../testing/sandbox";
import { startShopierEmulator } from "./emulator/server";

export const shopierSandbox = erpSandbox(
  "shopier",
  (baseUrl, secret) => ({
    accessToken: secret("accessToken"),
    webhookToken: secret("webhookToken"),
    apiUrl: `${baseUrl}/v1`,
  }),
  startShopierEmulator,
  (c) => ({
    accessToken: c.accessToken,
    webhookToken: c.webhookToken,
  }),
);
