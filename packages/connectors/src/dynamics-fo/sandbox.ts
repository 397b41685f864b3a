import { SANDBOX_SIZES, type SandboxEntry, sandboxInstance } from "../testing/sandbox";
import { startD365Emulator } from "./emulator/server";

const TENANT = "00000000-0000-4000-8000-000000000017";

export const d365Sandbox: SandboxEntry = {
  system: "dynamics-ax-rest",
  credentials: (baseUrl, secret) => ({
    environmentUrl: baseUrl,
    tenantId: TENANT,
    clientId: secret("clientId"),
    clientSecret: secret("clientSecret"),
    company: "TR01",
    customerGroup: "ETICARET",
    categoryHierarchy: "Perakende Kategorileri",
    tokenUrl: `${baseUrl}/${TENANT}/oauth2/v2.0/token`,
  }),
  async start({ seed, baseUrl, credentials: c, profile }) {
    const erp = await startD365Emulator({
      listen: false,
      baseUrl,
      seed,
      productCount: SANDBOX_SIZES[profile].erp,
      tenantId: c.tenantId,
      clientId: c.clientId,
      clientSecret: c.clientSecret,
      company: c.company,
    });
    // Orders with lines get invoiced, so invoice transfer has work.
    return sandboxInstance(erp, erp.startAutoInvoicing(2 * 60_000));
  },
};
