import {
  type ConnectorKind,
  startIdeasoftEmulator,
  startIkasEmulator,
  startMikroEmulator,
} from "@ep/connectors";
import type { FastifyInstance } from "fastify";

/** How big a tenant's seeded catalogue is: a new company's or the demo company's. */
export type SandboxProfile = "standard" | "demo";

export type SandboxInstance = {
  app: FastifyInstance;
  close(): Promise<void>;
};

export type SandboxStart = {
  seed: number;
  /** The tenant's own address, `…/sandbox/{system}/{tenant}`. */
  baseUrl: string;
  credentials: Record<string, string>;
  profile: SandboxProfile;
};

/** One built-in system a company can connect to without an account of its own. */
export type SandboxSystem = {
  /** The path segment: `/sandbox/{system}/…`. */
  system: string;
  kind: ConnectorKind;
  /** The registry's system type (ERP or shop number of the spec). */
  type: number;
  /** The tenant's login: `secret(name)` is a stable per-tenant secret. */
  credentials(baseUrl: string, secret: (name: string) => string): Record<string, string>;
  start(options: SandboxStart): Promise<SandboxInstance>;
};

// The ERP holds the whole catalogue; the shop lacks the newest SKUs, so product transfer has work.
const SIZES: Record<SandboxProfile, { erp: number; shop: number; orders: number }> = {
  standard: { erp: 300, shop: 250, orders: 10 },
  demo: { erp: 3_500, shop: 3_000, orders: 40 },
};

/** Adding a system's sandbox is adding its entry here. */
export const SANDBOX_SYSTEMS: readonly SandboxSystem[] = [
  {
    system: "mikro",
    kind: "erp",
    type: 9,
    credentials: (baseUrl, secret) => ({
      apiUrl: baseUrl,
      apiKey: secret("apiKey"),
      firmCode: "01",
      period: "2026",
      userCode: "SRV",
      password: secret("password"),
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startMikroEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        apiKey: c.apiKey,
        firmCode: c.firmCode,
        period: c.period,
        userCode: c.userCode,
        password: c.password,
      });
      // The accountant's round: open orders get their invoices, so invoice transfer has work.
      const stop = erp.startAutoInvoicing(2 * 60_000);
      return {
        app: erp.app,
        async close() {
          stop();
          await erp.close();
        },
      };
    },
  },
  {
    system: "ikas",
    kind: "shop",
    type: 1,
    credentials: (baseUrl, secret) => ({
      storeName: "deneme-magaza",
      clientId: secret("clientId"),
      clientSecret: secret("clientSecret"),
      apiUrl: `${baseUrl}/api/v1/admin/graphql`,
      tokenUrl: `${baseUrl}/api/admin/oauth/token`,
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const shop = await startIkasEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].shop,
        orderCount: SIZES[profile].orders,
        storeName: c.storeName,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
      });
      // Customers keep ordering, so order transfer has work.
      const stop = shop.startOrderGenerator(profile === "demo" ? 3 * 60_000 : 10 * 60_000, 2);
      return {
        app: shop.app,
        async close() {
          stop();
          await shop.close();
        },
      };
    },
  },
  {
    system: "ideasoft",
    kind: "shop",
    type: 2,
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
        productCount: SIZES[profile].shop,
        orderCount: SIZES[profile].orders,
        storeDomain: c.storeDomain,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        refreshToken: c.refreshToken,
        // A saved sandbox connection must keep working after a restart, when only this token is known.
        rotateRefreshTokens: false,
      });
      const stop = shop.startOrderGenerator(profile === "demo" ? 3 * 60_000 : 10 * 60_000, 2);
      return {
        app: shop.app,
        async close() {
          stop();
          await shop.close();
        },
      };
    },
  },
];

export function sandboxFor(kind: ConnectorKind, type: number): SandboxSystem | undefined {
  return SANDBOX_SYSTEMS.find((s) => s.kind === kind && s.type === type);
}
