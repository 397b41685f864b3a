import { shopSandbox } from "../testing/sandbox";
import { startHepsiburadaEmulator } from "./emulator/server";

/** The Hepsiburada channel's sandbox: the three services under one tenant address, customers ordering. */
export const hepsiburadaSandbox = shopSandbox(
  "hepsiburada",
  (baseUrl, secret) => ({
    merchantId: "6fc6d90d-ee1d-4372-b3a6-264b1275e9ff",
    secretKey: secret("secretKey").slice(0, 12),
    userAgent: "entegrasyonpaneli_dev",
    listingUrl: `${baseUrl}/listing`,
    orderUrl: `${baseUrl}/oms`,
    catalogUrl: `${baseUrl}/mpop/product`,
  }),
  startHepsiburadaEmulator,
  (c) => ({
    merchantId: c.merchantId,
    secretKey: c.secretKey,
    userAgent: c.userAgent,
    uploadDelayMs: 2_000,
  }),
);
