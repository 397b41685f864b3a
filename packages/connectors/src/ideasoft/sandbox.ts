import { shopSandbox } from "../testing/sandbox";
import { startIdeasoftEmulator } from "./emulator/server";

// The sandbox skips the consent page: the tenant starts with a refresh token the emulator knows.
export const ideasoftSandbox = shopSandbox(
  "ideasoft",
  (baseUrl, secret) => ({
    storeDomain: "deneme.myideasoft.com",
    clientId: secret("clientId"),
    clientSecret: secret("clientSecret"),
    refreshToken: secret("refreshToken"),
    apiUrl: baseUrl,
  }),
  startIdeasoftEmulator,
  (c) => ({
    storeDomain: c.storeDomain,
    clientId: c.clientId,
    clientSecret: c.clientSecret,
    refreshToken: c.refreshToken,
    // A saved sandbox connection must keep working after a restart, when only this token is known.
    rotateRefreshTokens: false,
  }),
);
