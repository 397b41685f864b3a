import { keepOrdering, SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startSopyoEmulator } from "./emulator/server";

export const sopyoSandbox: SandboxEntry = {
  system: "sopyo",
  credentials: (baseUrl, secret) => ({ apiToken: secret("apiToken"), apiUrl: baseUrl }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const shop = await startSopyoEmulator({
      listen: false,
      baseUrl,
      seed,
      orderCount: SANDBOX_SIZES[profile].orders,
      apiToken: c.apiToken,
    });
    return sandboxInstance(shop, keepOrdering(shop, profile));
  },
};
