import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startShopierEmulator } from "./emulator/server";

export const shopierSandbox: SandboxEntry = {
  system: "shopier",
  credentials: (baseUrl, secret) => ({
    accessToken: secret("accessToken"),
    webhookToken: secret("webhookToken"),
    apiUrl: `${baseUrl}/v1`,
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startShopierEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      accessToken: c.accessToken,
      webhookToken: c.webhookToken,
    });
    return sandboxInstance(erp);
  },
};
