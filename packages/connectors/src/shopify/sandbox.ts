import { shopSandbox } from "../testing/sandbox";
import { startShopifyEmulator } from "./emulator/server";

export const shopifySandbox = shopSandbox(
  "shopify",
  (baseUrl, secret) => ({
    shopDomain: "deneme-magaza.myshopify.com",
    accessToken: `shpat_${secret("accessToken")}`,
    apiBaseUrl: baseUrl,
  }),
  startShopifyEmulator,
  (c) => ({
    shopDomain: c.shopDomain,
    accessToken: c.accessToken,
  }),
);
