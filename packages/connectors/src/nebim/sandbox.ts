import { erpSandbox } from "../testing/sandbox";
import { startNebimEmulator } from "./emulator/server";

export const nebimSandbox = erpSandbox(
  "nebim",
  (baseUrl, secret) => ({
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
  startNebimEmulator,
  (c) => ({
    databaseName: c.databaseName,
    userGroupCode: c.userGroupCode,
    userName: c.userName,
    password: c.password,
  }),
);
