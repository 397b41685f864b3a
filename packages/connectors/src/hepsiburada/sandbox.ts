import { keepOrdering, SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startHepsiburadaEmulator } from "./emulator/server";

/** The Hepsiburada channel's sandbox: the three services under one tenant address, customers ordering. */
export const hepsiburadaSandbox: SandboxEntry = {
  system: "hepsiburada",
  credentials: (baseUrl, secret) => ({
    merchantId: "6fc6d90d-ee1d-4372-b3a6-264b1275e9ff",
    secretKey: secret("secretKey").slice(0, 12),
    userAgent: "entegrasyonpaneli_dev",
    listingUrl: `${baseUrl}/listing`,
    orderUrl: `${baseUrl}/oms`,
    catalogUrl: `${baseUrl}/mpop/product`,
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const shop = await startHepsiburadaEmulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].shop,
      orderCount: SANDBOX_SIZES[profile].orders,
      merchantId: c.merchantId,
      secretKey: c.secretKey,
      userAgent: c.userAgent,
      uploadDelayMs: 2_000,
    });
    return sandboxInstance(shop, keepOrdering(shop, profile));
  },
};
