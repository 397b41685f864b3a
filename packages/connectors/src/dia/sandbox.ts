import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startDiaEmulator } from "./emulator/server";

export const diaSandbox: SandboxEntry = {
  system: "dia",
  credentials: (baseUrl, secret) => ({
    serverCode: "sandbox",
    apiUrl: `${baseUrl}/api/v3`,
    username: "ws",
    password: secret("password"),
    apiKey: secret("apiKey"),
    firmCode: "1",
    periodCode: "1",
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startDiaEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      username: c.username,
      password: c.password,
      apiKey: c.apiKey,
    });
    return sandboxInstance(erp);
  },
};
