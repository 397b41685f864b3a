import { shopSandbox } from "../testing/sandbox";
import { startTrendyolEmulator } from "./emulator/server";

/** The Trendyol channel's sandbox: a seller with the shop's catalogue whose customers keep ordering. */
export const trendyolSandbox = shopSandbox(
  "trendyol",
  (baseUrl, secret) => ({
    sellerId: "123456",
    apiKey: secret("apiKey"),
    apiSecret: secret("apiSecret"),
    integratorName: "EntegrasyonPaneli",
    apiUrl: `${baseUrl}/integration`,
  }),
  startTrendyolEmulator,
  (c) => ({
    sellerId: c.sellerId,
    apiKey: c.apiKey,
    apiSecret: c.apiSecret,
    // Trendyol answers a batch within seconds; the sandbox too.
    batchDelayMs: 2_000,
  }),
);
