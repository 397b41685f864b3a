import {
  generateCustomers,
  InMemoryRateLimitStore,
  type InvoiceAttachment,
  type Order,
  type ShopConnector,
  type startUyumsoftEmulator,
  UYUMSOFT_TEST_ACCOUNT,
  UyumsoftProvider,
} from "@ep/connectors";
import { engineSchema } from "@ep/engine";
import { eq } from "drizzle-orm";
import { saveConnection } from "../../src/modules/connections/repository.ts";
import { companies, users } from "../../src/platform/db/schema.ts";
import type { ServerContext } from "../../src/server-context.ts";
import { registerAndLogin, type TestApp } from "../harness.ts";

/** A registered company (its user signed in): answers the company id and the token. */
export async function companyOfNewUser(t: TestApp): Promise<number> {
  return (await signedInCompany(t)).companyId;
}

export async function signedInCompany(t: TestApp): Promise<{ companyId: number; token: string }> {
  const { registration, token } = await registerAndLogin(t.app);
  const [user] = await t.ctx.database.db.select().from(users).where(eq(users.email, registration.email));
  if (!user?.companyId) throw new Error("registered user has no company");
  return { companyId: user.companyId, token };
}

export type Emu = Awaited<ReturnType<typeof startUyumsoftEmulator>>;

/** Seller data an e-invoice needs (Ayarlar › Firma). */
export async function setSellerData(ctx: ServerContext, companyId: number): Promise<void> {
  await ctx.database.db
    .update(companies)
    .set({
      taxNumber: "3880512345",
      taxOffice: "Kadıköy",
      address: "Moda Cad. No: 12, Kadıköy/İstanbul",
      website: "https://deneme-magaza.com.tr",
    })
    .where(eq(companies.id, companyId));
}

/** Seller data, the e-invoice "ERP" connection (`systemType`, `credentials`) and a shop; the shop's id. */
export async function invoicingCompanyWith(
  ctx: ServerContext,
  companyId: number,
  erp: { systemType: number; credentials: Record<string, string> },
): Promise<number> {
  await setSellerData(ctx, companyId);
  await saveConnection(ctx.database.db, ctx.credentials, { companyId, kind: "erp", ...erp });
  const shop = await saveConnection(ctx.database.db, ctx.credentials, {
    companyId,
    kind: "shop",
    systemType: 1,
    credentials: { storeName: "deneme", clientId: "x", clientSecret: "y" },
  });
  return shop.id;
}

/** Seller data, Uyumsoft (8) on `emu` as the e-invoice service, and a shop; the shop's id. */
export async function makeInvoicingCompany(ctx: ServerContext, companyId: number, emu: Emu) {
  return invoicingCompanyWith(ctx, companyId, {
    systemType: 8,
    credentials: {
      endpoint: emu.endpoint,
      username: UYUMSOFT_TEST_ACCOUNT.username,
      password: UYUMSOFT_TEST_ACCOUNT.password,
    },
  });
}

/** Seeded Turkish shop orders; every `eInvoiceEvery`-th buyer is a registered e-Fatura user of the emulator. */
export function makeOrders(
  count: number,
  emu: Emu,
  opts: { prefix: string; eInvoiceEvery?: number },
): Order[] {
  const customers = generateCustomers(`${opts.prefix}:inv`, count);
  const registered = emu.state.users.filter((u) => u.enabled && u.vkn.length === 10);
  return customers.map((c, i) => {
    const address = {
      firstName: c.firstName,
      lastName: c.lastName,
      line1: c.address.line1,
      district: c.address.district,
      city: c.address.city,
      postalCode: c.address.postalCode,
      country: "Türkiye",
      phone: c.phone,
    };
    const eInvoice =
      opts.eInvoiceEvery && i % opts.eInvoiceEvery === 0 ? registered[i % registered.length] : undefined;
    const qty = 1 + (i % 3);
    const unitPrice = 100 + (i % 17) * 10;
    const total = qty * unitPrice;
    return {
      id: `${opts.prefix}-id-${i + 1}`,
      orderNo: `${opts.prefix}-${String(i + 1).padStart(5, "0")}`,
      createdAt: "2026-11-20T10:00:00Z",
      updatedAt: "2026-11-20T10:00:00Z",
      status: i % 2 ? "SHIPPED" : "CREATED",
      paymentStatus: "PAID",
      currency: "TRY",
      customer: {
        ref: c.id,
        firstName: c.firstName,
        lastName: c.lastName,
        email: c.email,
        isCompany: Boolean(eInvoice) || c.isCompany,
        ...(eInvoice ? { companyName: eInvoice.title, taxNumber: eInvoice.vkn, taxOffice: "Kadıköy" } : {}),
        billingAddress: address,
      },
      billingAddress: address,
      shippingAddress: address,
      lines: [
        { sku: `SKU-${i % 40}`, name: "Pamuklu Tişört", qty, unitPrice, vatRate: 20, discount: 0, total },
      ],
      shipping: { method: "Yurtiçi Kargo", cost: 0 },
      totals: { subtotal: total, discount: 0, shipping: 0, tax: 0, grandTotal: total },
      // What an e-Arşiv of an internet sale must carry (issue 35).
      payment: { means: "KREDIKARTI/BANKAKARTI", date: "2026-11-20" },
      delivery: { carrier: "Yurtiçi Kargo", dispatchDate: "2026-11-21" },
    };
  });
}

export async function putOrdersInLedger(
  ctx: ServerContext,
  companyId: number,
  shopConnectionId: number,
  orders: Order[],
) {
  for (let i = 0; i < orders.length; i += 100) {
    await ctx.database.db.insert(engineSchema.orderLedger).values(
      orders.slice(i, i + 100).map((o) => ({
        companyId,
        shopConnectionId,
        orderNo: o.orderNo,
        shopOrderId: o.id,
        state: "received" as const,
        orderDate: new Date(o.createdAt),
        grandTotal: o.totals.grandTotal,
        payload: o,
      })),
    );
  }
}

/**
 * The Uyumsoft connector against the emulator. The emulator answers in this process, beside the
 * embedded database, so on a loaded box a plain answer can take over a second: the default timeout
 * leaves room for that. A test whose emulator hangs on purpose passes a timeout below the hang.
 */
export function uyumsoftProvider(emu: Emu, companyId: number, timeoutMs = 5_000) {
  return new UyumsoftProvider(
    {
      endpoint: emu.endpoint,
      username: UYUMSOFT_TEST_ACCOUNT.username,
      password: UYUMSOFT_TEST_ACCOUNT.password,
    },
    {
      companyId: String(companyId),
      rateLimitStore: new InMemoryRateLimitStore(),
      budget: { requests: 1000, windowMs: 1000 },
      timeoutMs,
      retry: { maxRetries: 2, baseDelayMs: 2, maxDelayMs: 10, maxRetryAfterMs: 1000 },
    },
  );
}

/** Only `attachInvoice` is used by the invoice cycle: the attachments are recorded per shop order. */
export function recordingShop(): { shop: ShopConnector; attached: Map<string, InvoiceAttachment[]> } {
  const attached = new Map<string, InvoiceAttachment[]>();
  const shop = {
    attachInvoice: async (orderId: string, attachment: InvoiceAttachment) => {
      attached.set(orderId, [...(attached.get(orderId) ?? []), attachment]);
    },
  } as unknown as ShopConnector;
  return { shop, attached };
}
