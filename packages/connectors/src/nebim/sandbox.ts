import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startNebimEmulator } from "./emulator/server";

export const nebimSandbox: SandboxEntry = {
  system: "nebim",
  credentials: (baseUrl, secret) => ({
    serviceUrl: baseUrl,
    connectMode: "session",
    databaseName: "NEBIMV3",
    userGroupCode: "V3",
    userName: "INT",
    password: secret("password"),
    orderType: "R",
    officeCode: "M",
    storeCode: "M01",
    warehouseCode: "M01",
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startNebimEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      databaseName: c.databaseName,
      userGroupCode: c.userGroupCode,
      userName: c.userName,
      password: c.password,
    });
    return sandboxInstance(erp);
  },
};
