import { keepOrdering, SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startShopifyEmulator } from "./emulator/server";

export const shopifySandbox: SandboxEntry = {
  system: "shopify",
  credentials: (baseUrl, secret) => ({
    shopDomain: "deneme-magaza.myshopify.com",
    accessToken: `shpat_${secret("accessToken")}`,
    apiBaseUrl: baseUrl,
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const shop = await startShopifyEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].shop,
      orderCount: SANDBOX_SIZES[profile].orders,
      shopDomain: c.shopDomain,
      accessToken: c.accessToken,
    });
    return sandboxInstance(shop, keepOrdering(shop, profile));
  },
};
