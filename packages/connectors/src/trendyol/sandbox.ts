import { keepOrdering, SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startTrendyolEmulator } from "./emulator/server";

/** The Trendyol channel's sandbox: a seller with the shop's catalogue whose customers keep ordering. */
export const trendyolSandbox: SandboxEntry = {
  system: "trendyol",
  credentials: (baseUrl, secret) => ({
    sellerId: "123456",
    apiKey: secret("apiKey"),
    apiSecret: secret("apiSecret"),
    integratorName: "EntegrasyonPaneli",
    apiUrl: `${baseUrl}/integration`,
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const shop = await startTrendyolEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].shop,
      orderCount: SANDBOX_SIZES[profile].orders,
      sellerId: c.sellerId,
      apiKey: c.apiKey,
      apiSecret: c.apiSecret,
      // Trendyol answers a batch within seconds; the sandbox too.
      batchDelayMs: 2_000,
    });
    return sandboxInstance(shop, keepOrdering(shop, profile));
  },
};
