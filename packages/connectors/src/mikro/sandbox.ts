import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startMikroEmulator } from "./emulator/server";

export const mikroSandbox: SandboxEntry = {
  system: "mikro",
  credentials: (baseUrl, secret) => ({
    apiUrl: baseUrl,
    apiKey: secret("apiKey"),
    firmCode: "01",
    period: "2026",
    userCode: "SRV",
    password: secret("password"),
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startMikroEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      apiKey: c.apiKey,
      firmCode: c.firmCode,
      period: c.period,
      userCode: c.userCode,
      password: c.password,
    });
    // The accountant's round: open orders get their invoices, so invoice transfer has work.
    return sandboxInstance(erp, erp.startAutoInvoicing(2 * 60_000));
  },
};
