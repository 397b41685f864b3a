import { erpSandbox } from "../testing/sandbox";
import { startDiaEmulator } from "./emulator/server";

export const diaSandbox = erpSandbox(
  "dia",
  (baseUrl, secret) => ({
    serverCode: "sandbox",
    apiUrl: `${baseUrl}/api/v3`,
    username: "ws",
    password: secret("password"),
    apiKey: secret("apiKey"),
    firmCode: "1",
    periodCode: "1",
  }),
  startDiaEmulator,
  (c) => ({
    username: c.username,
    password: c.password,
    apiKey: c.apiKey,
  }),
);
