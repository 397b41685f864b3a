import { erpSandbox } from "../testing/sandbox";
import { startIsbasiEmulator } from "./emulator/server";

export const isbasiSandbox = erpSandbox(
  "logo-isbasi",
  (baseUrl, secret) => ({
    apiUrl: baseUrl,
    apiKey: secret("apiKey"),
    username: "yonetici@deneme-magaza.com.tr",
    password: secret("password"),
  }),
  startIsbasiEmulator,
  (c) => ({
    apiKey: c.apiKey,
    username: c.username,
    password: c.password,
  }),
);
