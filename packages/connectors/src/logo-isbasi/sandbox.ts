import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startIsbasiEmulator } from "./emulator/server";

export const isbasiSandbox: SandboxEntry = {
  system: "logo-isbasi",
  credentials: (baseUrl, secret) => ({
    apiUrl: baseUrl,
    apiKey: secret("apiKey"),
    username: "yonetici@deneme-magaza.com.tr",
    password: secret("password"),
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startIsbasiEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      apiKey: c.apiKey,
      username: c.username,
      password: c.password,
    });
    return sandboxInstance(erp);
  },
};
