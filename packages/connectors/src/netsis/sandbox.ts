import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startNetsisEmulator } from "./emulator/server";

export const netsisSandbox: SandboxEntry = {
  system: "netsis",
  credentials: (baseUrl, secret) => ({
    apiUrl: baseUrl,
    netsisUser: "NETSIS",
    netsisPassword: secret("password"),
    dbName: "DEMO2026",
    dbType: "0",
    dbUser: "TEMELSET",
    dbPassword: secret("dbPassword"),
    branchCode: "0",
    depotCode: "1",
    orderSeries: "W",
    customerPrefix: "120.W.",
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startNetsisEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      netsisUser: c.netsisUser,
      netsisPassword: c.netsisPassword,
      dbName: c.dbName,
      dbUser: c.dbUser,
      dbPassword: c.dbPassword,
    });
    return sandboxInstance(erp);
  },
};
