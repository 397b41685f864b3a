import { keepOrdering, SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startIdeasoftEmulator } from "./emulator/server";

export const ideasoftSandbox: SandboxEntry = {
  system: "ideasoft",
  // The sandbox skips the consent page: the tenant starts with a refresh token the emulator knows.
  credentials: (baseUrl, secret) => ({
    storeDomain: "deneme.myideasoft.com",
    clientId: secret("clientId"),
    clientSecret: secret("clientSecret"),
    refreshToken: secret("refreshToken"),
    apiUrl: baseUrl,
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const shop = await startIdeasoftEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].shop,
      orderCount: SANDBOX_SIZES[profile].orders,
      storeDomain: c.storeDomain,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      refreshToken: c.refreshToken,
      // A saved sandbox connection must keep working after a restart, when only this token is known.
      rotateRefreshTokens: false,
    });
    return sandboxInstance(shop, keepOrdering(shop, profile));
  },
};
