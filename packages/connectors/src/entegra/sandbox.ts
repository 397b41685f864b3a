import { erpSandbox } from "../testing/sandbox";
import { startEntegraEmulator } from "./emulator/server";

export const entegraSandbox = erpSandbox(
  "entegra",
  (baseUrl, secret) => ({
    email: "api@deneme-magaza.com.tr",
    password: secret("password"),
    apiUrl: baseUrl,
  }),
  startEntegraEmulator,
  (c) => ({
    email: c.email,
    password: c.password,
  }),
);
