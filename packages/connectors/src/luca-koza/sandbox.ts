import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startLucaKozaEmulator } from "./emulator/server";

export const lucaKozaSandbox: SandboxEntry = {
  system: "luca-koza",
  credentials: (baseUrl, secret) => ({
    apiUrl: baseUrl,
    orgCode: "1234567",
    userName: "admin",
    userPassword: secret("userPassword"),
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startLucaKozaEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      orgCode: c.orgCode,
      userName: c.userName,
      userPassword: c.userPassword,
    });
    return sandboxInstance(erp);
  },
};
