import { keepOrdering, SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startSentosEmulator } from "./emulator/server";

export const sentosSandbox: SandboxEntry = {
  system: "sentos",
  credentials: (baseUrl, secret) => ({
    apiUrl: `${baseUrl}/api`,
    apiKey: secret("apiKey"),
    apiSecret: secret("apiSecret"),
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    // Sentos's published limits (12 per minute, the same GET twice a minute) hold in the sandbox too.
    const shop = await startSentosEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].shop,
      orderCount: SANDBOX_SIZES[profile].orders,
      apiKey: c.apiKey,
      apiSecret: c.apiSecret,
    });
    return sandboxInstance(shop, keepOrdering(shop, profile));
  },
};
