import { existsSync } from "node:fs";
import {
  AX_PORT_PATH,
  type ConnectorKind,
  createAxEmulator,
  createUyumsoftEmulator,
  startD365Emulator,
  startDiaEmulator,
  startEntegraEmulator,
  startIdeasoftEmulator,
  startIkasEmulator,
  startIsbasiEmulator,
  startLucaKozaEmulator,
  startMikroEmulator,
  startNebimEmulator,
  startNetsisEmulator,
  startSentosEmulator,
  startShopierEmulator,
  startShopifyEmulator,
  startSopyoEmulator,
  startTsoftEmulator,
  UYUMSOFT_PATH,
  UYUMSOFT_TEST_ACCOUNT,
  UYUMSOFT_WSDL_PATH,
} from "@ep/connectors";
import type { FastifyInstance } from "fastify";

/** How big a tenant's seeded catalogue is: a new company's or the demo company's. */
export type SandboxProfile = "standard" | "demo";

export type SandboxInstance = {
  app: FastifyInstance;
  close(): Promise<void>;
};

/** Who decides when a shop tenant's customers order (the demo: at its own past's pace). */
export type OrderArrivals = {
  /** The order number the shop gave last, when it had given some before a restart. */
  lastOrderNumber: number | undefined;
  /** How often `due` is asked. */
  checkEveryMs: number;
  /** When the orders due by now and not placed yet were placed (ms); asked at start and then regularly. */
  due(): number[];
};

export type SandboxStart = {
  seed: number;
  /** The tenant's own address, `…/sandbox/{system}/{tenant}`. */
  baseUrl: string;
  credentials: Record<string, string>;
  profile: SandboxProfile;
  /** The shop's orders: as these say, instead of a few at start and more every few minutes. */
  arrivals?: OrderArrivals;
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

/** Places the orders `arrivals` says are due, now and from then on; returns the stop. */
function placeArrivals(
  arrivals: OrderArrivals,
  shop: { generateOrders(n: number, orderedAt: readonly number[]): unknown },
): () => void {
  const place = () => {
    const due = arrivals.due();
    if (due.length > 0) shop.generateOrders(due.length, due);
  };
  place();
  const timer = setInterval(place, arrivals.checkEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}

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
    async start({ seed, baseUrl, credentials: c, profile, arrivals }) {
      const shop = await startIkasEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].shop,
        orderCount: arrivals ? 0 : SIZES[profile].orders,
        lastOrderNumber: arrivals?.lastOrderNumber,
        storeName: c.storeName,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
      });
      // Customers keep ordering, so order transfer has work.
      const stop = arrivals ? placeArrivals(arrivals, shop) : shop.startOrderGenerator(10 * 60_000, 2);
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
    system: "shopify",
    kind: "shop",
    type: 5,
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
        productCount: SIZES[profile].shop,
        orderCount: SIZES[profile].orders,
        shopDomain: c.shopDomain,
        accessToken: c.accessToken,
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
    system: "tsoft",
    kind: "shop",
    type: 4,
    credentials: (baseUrl, secret) => ({
      storeUrl: baseUrl,
      apiUser: "entegrasyon",
      apiPass: secret("apiPass"),
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const shop = await startTsoftEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].shop,
        orderCount: SIZES[profile].orders,
        apiUser: c.apiUser,
        apiPass: c.apiPass,
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
  {
    system: "sentos",
    kind: "shop",
    type: 3,
    credentials: (baseUrl, secret) => ({
      apiUrl: `${baseUrl}/api`,
      apiKey: secret("apiKey"),
      apiSecret: secret("apiSecret"),
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      // Sentos's published limits (12 per minute, the same GET twice a minute) hold in the sandbox too.
      const shop = await startSentosEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].shop,
        orderCount: SIZES[profile].orders,
        apiKey: c.apiKey,
        apiSecret: c.apiSecret,
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
  {
    system: "sopyo",
    kind: "shop",
    type: 6,
    credentials: (baseUrl, secret) => ({ apiToken: secret("apiToken"), apiUrl: baseUrl }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const shop = await startSopyoEmulator({
        listen: false,
        baseUrl,
        seed,
        orderCount: SIZES[profile].orders,
        apiToken: c.apiToken,
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
  {
    system: "dia",
    kind: "erp",
    type: 5,
    credentials: (baseUrl, secret) => ({
      serverCode: "sandbox",
      apiUrl: `${baseUrl}/api/v3`,
      username: "ws",
      password: secret("password"),
      apiKey: secret("apiKey"),
      firmCode: "1",
      periodCode: "1",
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startDiaEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        username: c.username,
        password: c.password,
        apiKey: c.apiKey,
      });
      return { app: erp.app, close: () => erp.close() };
    },
  },
  {
    system: "netsis",
    kind: "erp",
    type: 2,
    credentials: (baseUrl, secret) => ({
      apiUrl: baseUrl,
      netsisUser: "NETSIS",
      netsisPassword: secret("password"),
      dbName: "DEMO2026",
      dbType: "0",
      dbUser: "TEMELSET",
      dbPassword: secret("dbPassword"),
      branchCode: "0",
      depotCode: "1",
      orderSeries: "W",
      customerPrefix: "120.W.",
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startNetsisEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        netsisUser: c.netsisUser,
        netsisPassword: c.netsisPassword,
        dbName: c.dbName,
        dbUser: c.dbUser,
        dbPassword: c.dbPassword,
      });
      return { app: erp.app, close: () => erp.close() };
    },
  },
  {
    system: "nebim",
    kind: "erp",
    type: 1,
    credentials: (baseUrl, secret) => ({
      serviceUrl: baseUrl,
      connectMode: "session",
      databaseName: "NEBIMV3",
      userGroupCode: "V3",
      userName: "INT",
      password: secret("password"),
      orderType: "R",
      officeCode: "M",
      storeCode: "M01",
      warehouseCode: "M01",
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startNebimEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        databaseName: c.databaseName,
        userGroupCode: c.userGroupCode,
        userName: c.userName,
        password: c.password,
      });
      return { app: erp.app, close: () => erp.close() };
    },
  },
  {
    system: "logo-isbasi",
    kind: "erp",
    type: 21,
    credentials: (baseUrl, secret) => ({
      apiUrl: baseUrl,
      apiKey: secret("apiKey"),
      username: "yonetici@deneme-magaza.com.tr",
      password: secret("password"),
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startIsbasiEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        apiKey: c.apiKey,
        username: c.username,
        password: c.password,
      });
      return { app: erp.app, close: () => erp.close() };
    },
  },
  {
    system: "dynamics-ax",
    kind: "erp",
    type: 7,
    credentials: (baseUrl) => ({
      endpoint: `${baseUrl}${AX_PORT_PATH}`,
      company: "dat",
      customerAccount: "WEB-001",
    }),
    async start({ seed, credentials: c, profile }) {
      const emu = await createAxEmulator({ seed, itemCount: SIZES[profile].erp, company: c.company });
      return { app: emu.server.app, close: () => emu.server.close() };
    },
  },
  {
    system: "dynamics-ax-rest",
    kind: "erp",
    type: 17,
    credentials: (baseUrl, secret) => ({
      environmentUrl: baseUrl,
      tenantId: "00000000-0000-4000-8000-000000000017",
      clientId: secret("clientId"),
      clientSecret: secret("clientSecret"),
      company: "TR01",
      customerGroup: "ETICARET",
      categoryHierarchy: "Perakende Kategorileri",
      tokenUrl: `${baseUrl}/00000000-0000-4000-8000-000000000017/oauth2/v2.0/token`,
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startD365Emulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        tenantId: c.tenantId,
        clientId: c.clientId,
        clientSecret: c.clientSecret,
        company: c.company,
      });
      // Orders with lines get invoiced, so invoice transfer has work.
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
    system: "entegra",
    kind: "erp",
    type: 16,
    credentials: (baseUrl, secret) => ({
      email: "api@deneme-magaza.com.tr",
      password: secret("password"),
      apiUrl: baseUrl,
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startEntegraEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        email: c.email,
        password: c.password,
      });
      return { app: erp.app, close: () => erp.close() };
    },
  },
  {
    system: "shopier",
    kind: "erp",
    type: 20,
    credentials: (baseUrl, secret) => ({
      accessToken: secret("accessToken"),
      webhookToken: secret("webhookToken"),
      apiUrl: `${baseUrl}/v1`,
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startShopierEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        accessToken: c.accessToken,
        webhookToken: c.webhookToken,
      });
      return { app: erp.app, close: () => erp.close() };
    },
  },
  {
    system: "luca-koza",
    kind: "erp",
    type: 23,
    credentials: (baseUrl, secret) => ({
      apiUrl: baseUrl,
      orgCode: "1234567",
      userName: "admin",
      userPassword: secret("userPassword"),
    }),
    async start({ seed, baseUrl, credentials: c, profile }) {
      const erp = await startLucaKozaEmulator({
        listen: false,
        baseUrl,
        seed,
        productCount: SIZES[profile].erp,
        orgCode: c.orgCode,
        userName: c.userName,
        userPassword: c.userPassword,
      });
      return { app: erp.app, close: () => erp.close() };
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
  // The Uyumsoft emulator reads the vendor WSDL/XSDs from ../shared (present in a clone with the shared
  // docs: CI and development); without them the system is simply not offered as a sandbox.
  ...(existsSync(UYUMSOFT_WSDL_PATH)
    ? [
        {
          system: "uyumsoft",
          kind: "erp" as const,
          type: 8,
          credentials: (baseUrl: string, secret: (name: string) => string) => ({
            endpoint: `${baseUrl}${UYUMSOFT_PATH}`,
            username: "Uyumsoft",
            password: secret("password"),
          }),
          async start({ seed, credentials: c }: SandboxStart): Promise<SandboxInstance> {
            const emu = await createUyumsoftEmulator({
              seed,
              account: {
                ...UYUMSOFT_TEST_ACCOUNT,
                username: c.username ?? "Uyumsoft",
                password: c.password ?? "",
              },
            });
            return { app: emu.server.app, close: () => emu.server.close() };
          },
        },
      ]
    : []),
];

export function sandboxFor(kind: ConnectorKind, type: number): SandboxSystem | undefined {
  return SANDBOX_SYSTEMS.find((s) => s.kind === kind && s.type === type);
}
