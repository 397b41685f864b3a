import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { AX_PORT_PATH, createAxEmulator } from "./emulator/server";

export const axSandbox: SandboxEntry = {
  system: "dynamics-ax",
  credentials: (baseUrl) => ({
    endpoint: `${baseUrl}${AX_PORT_PATH}`,
    company: "dat",
    customerAccount: "WEB-001",
  }),
  async start({ seed, credentials: c, profile }) {
    const emu = await createAxEmulator({ seed, itemCount: SANDBOX_SIZES[profile].erp, company: c.company });
    return sandboxInstance(emu.server);
  },
};
