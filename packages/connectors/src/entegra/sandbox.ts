import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startEntegraEmulator } from "./emulator/server";

export const entegraSandbox: SandboxEntry = {
  system: "entegra",
  credentials: (baseUrl, secret) => ({
    email: "api@deneme-magaza.com.tr",
    password: secret("password"),
    apiUrl: baseUrl,
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startEntegraEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      email: c.email,
      password: c.password,
    });
    return sandboxInstance(erp);
  },
};
