import { ProductType } from "@ep/contracts";
import { engineSchema, ensureChannelJobs, ensureCompanyJobs } from "@ep/engine";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { companies, licenses, users } from "../../platform/db/schema.ts";
import { hashPassword } from "../../platform/security/passwords.ts";
import { saveChannel, saveConnection } from "../connections/repository.ts";
import type { WithSandbox } from "../sandbox/hub.ts";
import { sandboxFor } from "../sandbox/registry.ts";
import { clearSandboxLedgers, seedDemoHistory } from "./history.ts";
import { demoOrderArrivals } from "./orders.ts";

export type DemoOptions = {
  email: string;
  password: string;
  /** How often the demo shop looks for orders due (default a minute; tests: less). */
  orderCheckMs?: number;
};

export type DemoCompany = {
  companyId: number;
  /** Where its sandbox ERP and shop answer (`…/sandbox/mikro/…`, `…/sandbox/ikas/…`). */
  erpUrl: string;
  shopUrl: string;
};

/**
 * The demo company: wired to its own tenants of the built-in Mikro and IKAS sandboxes (the same
 * mounts every company can connect to, with the demo's larger catalogue), its jobs on their
 * schedules. Its past is seeded once; on every start the sandboxes begin afresh, so what the ledgers
 * knew of them is cleared, but the orders are kept (job history too): today's orders go on arriving at
 * the past's pace (`demoOrderArrivals`), the shop's order numbers continuing after the last one kept.
 */
export async function startDemoCompany(
  ctx: AppContext & WithSandbox,
  options: DemoOptions,
): Promise<DemoCompany> {
  const erpSystem = sandboxFor("erp", 9)!;
  const shopSystem = sandboxFor("shop", 1)!;
  const db = ctx.database.db;
  const now = ctx.clock.now();

  let [user] = await db.select().from(users).where(eq(users.email, options.email));
  let companyId = user?.companyId ?? null;
  if (!user || companyId === null) {
    const passwordHash = await hashPassword(options.password);
    companyId = await db.transaction(async (tx) => {
      const [company] = await tx
        .insert(companies)
        .values({
          name: "Demo Yapı Market A.Ş.",
          taxOffice: "Kadıköy",
          taxNumber: "1234567890",
          address: "Caferağa Mah. Moda Cad. No:1, Kadıköy / İstanbul",
          phone: "02161234567",
          erpType: 9,
          ecommerceType: 1,
          isDemo: true,
        })
        .returning();
      [user] = await tx
        .insert(users)
        .values({
          companyId: company!.id,
          email: options.email,
          passwordHash,
          firstName: "Deniz",
          lastName: "Demir",
          phone: "05321234567",
        })
        .returning();
      const expiresAt = new Date(now.getTime() + 365 * 86_400_000);
      await tx.insert(licenses).values([
        {
          companyId: company!.id,
          productType: ProductType.ErpIntegration,
          name: "ERP Entegrasyonu",
          description: "Ürün, stok, fiyat ve kategori aktarımı ile sipariş ve faturaların ERP'ye yazılması.",
          imageFileName: "erp-integration.svg",
          expiresAt,
        },
        {
          companyId: company!.id,
          productType: ProductType.ECommerceIntegration,
          name: "E-Ticaret Entegrasyonu",
          description: "E-ticaret sitenizle ürün, stok, fiyat ve sipariş senkronizasyonu.",
          imageFileName: "ecommerce-integration.svg",
          expiresAt,
        },
      ]);
      return company!.id;
    });
  } else {
    // The sandboxes start fresh each time: what the ledgers remember of the previous ones is gone.
    await clearSandboxLedgers(db, companyId);
  }

  const erp = ctx.sandbox.credentials(erpSystem, companyId);
  const shop = ctx.sandbox.credentials(shopSystem, companyId);
  await saveConnection(db, ctx.credentials, {
    companyId,
    kind: "erp",
    systemType: erpSystem.type,
    credentials: erp,
    isEmulated: true,
  });
  const shopConnection = await saveConnection(db, ctx.credentials, {
    companyId,
    kind: "shop",
    systemType: shopSystem.type,
    credentials: shop,
    isEmulated: true,
  });
  await ensureCompanyJobs(db, companyId, now);
  await seedDemoHistory(db, companyId, shopConnection.id, now);
  const arrivals = await demoOrderArrivals(db, companyId, shopConnection.id, ctx.clock, options.orderCheckMs);
  // Started now with the demo's catalogue (and pinned), before its first job calls them.
  await ctx.sandbox.start(erpSystem, companyId, "demo");
  await ctx.sandbox.start(shopSystem, companyId, "demo", arrivals);
  // Beside its shop the demo sells on the marketplaces' sandboxes (issue 37), each a channel with its jobs.
  // Two of them, as issue 37 asks (whatever other channel sandboxes this machine offers).
  const demoChannels = new Set(["trendyol", "hepsiburada"]);
  for (const system of ctx.sandbox.channelSystems.filter((s) => demoChannels.has(s.system))) {
    const channel = await saveChannel(db, ctx.credentials, {
      companyId,
      system: system.system,
      credentials: ctx.sandbox.credentials(system, companyId),
      isEmulated: true,
    });
    // Its sandbox and the ERP's start afresh: the orders the ledger remembers are not in this ERP.
    const { orderLedger } = engineSchema;
    await db.delete(orderLedger).where(eq(orderLedger.shopConnectionId, channel.id));
    await ensureChannelJobs(db, companyId, channel.id, now);
    await ctx.sandbox.start(system, companyId, "demo");
  }
  return { companyId, erpUrl: erp.apiUrl ?? "", shopUrl: shop.apiUrl ?? "" };
}
