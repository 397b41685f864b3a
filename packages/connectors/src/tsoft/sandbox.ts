import { keepOrdering, SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startTsoftEmulator } from "./emulator/server";

export const tsoftSandbox: SandboxEntry = {
  system: "tsoft",
  credentials: (baseUrl, secret) => ({
    storeUrl: baseUrl,
    apiUser: "entegrasyon",
    apiPass: secret("apiPass"),
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const shop = await startTsoftEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].shop,
      orderCount: SANDBOX_SIZES[profile].orders,
      apiUser: c.apiUser,
      apiPass: c.apiPass,
    });
    return sandboxInstance(shop, keepOrdering(shop, profile));
  },
};
