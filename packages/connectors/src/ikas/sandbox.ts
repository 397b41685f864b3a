import { placeArrivals, SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startIkasEmulator } from "./emulator/server";

export const ikasSandbox: SandboxEntry = {
  system: "ikas",
  credentials: (baseUrl, secret) => ({
    storeName: "deneme-magaza",
    clientId: secret("clientId"),
    clientSecret: secret("clientSecret"),
    apiUrl: `${baseUrl}/api/v1/admin/graphql`,
    tokenUrl: `${baseUrl}/api/admin/oauth/token`,
  }),
  async start({ seed, baseUrl, credentials: c, profile, arrivals }) {
    const shop = await startIkasEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].shop,
      orderCount: arrivals ? 0 : SANDBOX_SIZES[profile].orders,
      lastOrderNumber: arrivals?.lastOrderNumber,
      storeName: c.storeName,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
    });
    // Customers keep ordering, so order transfer has work.
    return sandboxInstance(
      shop,
      arrivals ? placeArrivals(arrivals, shop) : shop.startOrderGenerator(10 * 60_000, 2),
    );
  },
};
