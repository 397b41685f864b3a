import { erpSandbox } from "../testing/sandbox";
import { startLucaKozaEmulator } from "./emulator/server";

export const lucaKozaSandbox = erpSandbox(
  "luca-koza",
  (baseUrl, secret) => ({
    apiUrl: baseUrl,
    orgCode: "1234567",
    userName: "admin",
    userPassword: secret("userPassword"),
  }),
  startLucaKozaEmulator,
  (c) => ({
    orgCode: c.orgCode,
    userName: c.userName,
    userPassword: c.userPassword,
  }),
);
