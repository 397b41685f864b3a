import { shopSandbox } from "../testing/sandbox";
import { startN11Emulator } from "./emulator/server";

/** The n11 channel's sandbox: a seller with the shop's catalogue whose customers keep ordering. */
export const n11Sandbox = shopSandbox(
  "n11",
  (baseUrl, secret) => ({
    appKey: secret("appKey"),
    appSecret: secret("appSecret"),
    integratorName: "EntegrasyonPaneli",
    shipmentTemplate: "Standart Kargo",
    apiUrl: baseUrl,
  }),
  startN11Emulator,
  (c) => ({
    appKey: c.appKey,
    appSecret: c.appSecret,
    // n11 works through a task within seconds; the sandbox too.
    taskDelayMs: 2_000,
  }),
);
