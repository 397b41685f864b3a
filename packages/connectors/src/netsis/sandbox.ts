import { erpSandbox } from "../testing/sandbox";
import { startNetsisEmulator } from "./emulator/server";

export const netsisSandbox = erpSandbox(
  "netsis",
  (baseUrl, secret) => ({
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
  startNetsisEmulator,
  (c) => ({
    netsisUser: c.netsisUser,
    netsisPassword: c.netsisPassword,
    dbName: c.dbName,
    dbUser: c.dbUser,
    dbPassword: c.dbPassword,
  }),
);
