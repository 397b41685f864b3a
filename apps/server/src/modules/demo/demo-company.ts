import { type IkasEmulator, type MikroEmulator, startIkasEmulator, startMikroEmulator } from "@ep/connectors";
import { ProductType } from "@ep/contracts";
import { engineSchema, ensureCompanyJobs } from "@ep/engine";
import { eq } from "drizzle-orm";
import type { AppContext } from "../../platform/context.ts";
import { companies, licenses, users } from "../../platform/db/schema.ts";
import { hashPassword } from "../../platform/security/passwords.ts";
import { saveConnection } from "../connections/repository.ts";

const DEMO_SEED = 2026;
/** The ERP holds the whole catalogue; the shop starts without the newest 500, so product transfer has work. */
const ERP_SKUS = 3_500;
const SHOP_SKUS = 3_000;

export type DemoOptions = {
  email: string;
  password: string;
  /** New shop orders: one every this many ms (a few minutes in the demo). */
  orderEveryMs?: number;
};

export type DemoCompany = {
  companyId: number;
  erp: MikroEmulator;
  shop: IkasEmulator;
  stop(): Promise<void>;
};

/**
 * The demo company: Mikro and IKAS emulators in this process, a company wired to them, its jobs on
 * their schedules. Seeded once; on every start the emulators begin afresh, so the demo company's
 * ledgers are cleared with them (job history stays).
 */
export async function startDemoCompany(ctx: AppContext, options: DemoOptions): Promise<DemoCompany> {
  const erp = await startMikroEmulator({ host: "127.0.0.1", seed: DEMO_SEED, productCount: ERP_SKUS });
  const shop = await startIkasEmulator({
    host: "127.0.0.1",
    seed: DEMO_SEED,
    productCount: SHOP_SKUS,
    orderCount: 40,
  });
  // The emulators listen on loopback, which outbound calls never reach by default: allow exactly these two.
  ctx.outbound.allow(`127.0.0.1:${erp.port}`);
  ctx.outbound.allow(`127.0.0.1:${shop.port}`);
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
    // The emulators start fresh each time: what the ledgers remember of the previous ones is gone.
    for (const table of [engineSchema.invoiceLedger, engineSchema.orderLedger, engineSchema.syncCursors]) {
      await db.delete(table).where(eq(table.companyId, companyId));
    }
    await db.delete(engineSchema.syncLedger).where(eq(engineSchema.syncLedger.companyId, companyId));
  }

  await saveConnection(db, ctx.credentials, {
    companyId,
    kind: "erp",
    systemType: 9,
    credentials: { ...erp.credentials },
    isEmulated: true,
  });
  await saveConnection(db, ctx.credentials, {
    companyId,
    kind: "shop",
    systemType: 1,
    credentials: { ...shop.credentials },
    isEmulated: true,
  });
  await ensureCompanyJobs(db, companyId, now);
  const stopOrders = shop.startOrderGenerator(options.orderEveryMs ?? 3 * 60_000, 2);
  const stopInvoicing = erp.startAutoInvoicing(2 * 60_000);
  return {
    companyId,
    erp,
    shop,
    async stop() {
      stopOrders();
      stopInvoicing();
      await Promise.all([erp.close(), shop.close()]);
    },
  };
}
