/**
 * Trendyol emulator on the kit, built from the judge: every request is judged (judge/requests.ts) and the
 * runtime rules (judge/rules.ts) gate it, so what Trendyol refuses is refused here in its shapes — 401
 * `ClientApiAuthenticationException`, 403 without User-Agent, 400 `{ errors: [{ message }] }` for a bad
 * body or the 15-minute repeat, 429 over the catalogue lists' limit. State: approved products from the
 * seeded catalogue (barcode, stockCode, productMainId), the category tree and attributes, shipment
 * packages (orders) with status changes, cancellations and returns, and stock/price batches whose item
 * results are ready after `batchDelayMs`.
 */

import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { categoryTree, generateCatalog, generateCustomer } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import { decodeCursor, encodeCursor } from "../../testing/paging";
import { Prng } from "../../testing/prng";
import { recordedFrom } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { TRENDYOL_MAX_QUANTITY } from "../descriptor";
import { apiPath, judgeTrendyolRequest } from "../judge/requests";
import { trendyolRules } from "../judge/rules";
import { EMULATED_CATEGORY_ATTRIBUTES, registerListingRoutes } from "./listing";

type Row = Record<string, unknown>;

export interface TrendyolEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  sellerId?: string;
  apiKey?: string;
  apiSecret?: string;
  /** When a stock/price batch's item results become readable (Trendyol: seconds). */
  batchDelayMs?: number;
  /** The 15-minute window and the lists' minute, scaled by tests. */
  sameRequestMs?: number;
  listWindowMs?: number;
}

export interface TrendyolCounters extends EmulatorCounters {
  rejected: number;
  refusedByRules: number;
  stockItems: number;
  priceItems: number;
}

export interface TrendyolEmulator extends Emulator<TrendyolCounters> {
  credentials: { sellerId: string; apiKey: string; apiSecret: string; apiUrl: string };
  products: Row[];
  packages: Row[];
  generateOrders(n: number): Row[];
  /** The customer cancels / returns a package: its status changes and it shows up as changed. */
  cancelPackage(id: string): void;
  returnPackage(id: string): void;
  /**
   * The seller accepts the customer's return of a package's lines (a claim in `Accepted`; the package keeps
   * its status): every unit, or only `units` (order line id → units returned by this claim).
   */
  acceptClaim(id: string, units?: Record<string, number>): void;
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
  rules: RuleGate<ReturnType<typeof recordedFrom>, { status: number; body: unknown }>;
}

const error = (message: string) => ({ errors: [{ key: "error", message }] });

export async function startTrendyolEmulator(opts: TrendyolEmulatorOptions = {}): Promise<TrendyolEmulator> {
  const sellerId = opts.sellerId ?? "123456";
  const apiKey = opts.apiKey ?? "trendyol-emulator-key";
  const apiSecret = opts.apiSecret ?? "trendyol-emulator-secret";
  const seed = opts.seed ?? 1;
  const server = createEmulatorServer<TrendyolCounters>(
    {
      ...opts,
      rateLimit: false,
      answers: {
        serverError: { status: 500, body: error("Internal Server Error") },
        tooManyRequests: () => error("Too Many Requests"),
        lock: { status: 409, body: error("Conflict") },
        unauthorized: { status: 401, body: { exception: "ClientApiAuthenticationException" } },
      },
    },
    { rejected: 0, refusedByRules: 0, stockItems: 0, priceItems: 0 },
  );
  const { counters, now } = server;
  const rng = new Prng(`${seed}:trendyol`);
  const rules = new RuleGate(
    trendyolRules({ sameRequestMs: opts.sameRequestMs, listWindowMs: opts.listWindowMs }),
    (v) => {
      // The lists' limit is a 429; every other rule is Trendyol's 400 with its message.
      if (v.rule === "trendyol.catalog-lists-50-per-minute")
        return { status: 429, body: error("Too Many Requests") };
      if (v.rule === "trendyol.user-agent")
        return { status: 403, body: error("User-Agent header is required") };
      if (v.rule === "trendyol.product-v1-retired")
        return { status: 410, body: error("Product V1 services are no longer available; use v2") };
      if (v.rule === "trendyol.same-request-15-min")
        return { status: 400, body: error("15 dakika boyunca aynı isteği tekrarlı olarak atamazsınız!") };
      return { status: 400, body: error(v.problems.join("; ")) };
    },
  );

  // Catalogue: one approved product per SKU; categories from the catalogue's two levels.
  const catalog = generateCatalog({ seed, count: opts.productCount ?? 0 });
  const { tree, categoryOf } = categoryTree(1000, []);
  const products: Row[] = catalog.map((item, i) => ({
    id: `p${i + 1}`,
    approved: true,
    barcode: item.barcode,
    stockCode: item.sku,
    productMainId: item.modelCode,
    title: item.name,
    brand: item.brand,
    categoryId: categoryOf(item.categoryRoot, item.categoryChild),
    quantity: item.stock1,
    salePrice: item.retailPrice,
    listPrice: item.retailPrice,
    vatRate: item.vatRate,
  }));
  const byBarcode = new Map(products.map((p) => [String(p.barcode), p]));

  const packages: Row[] = [];
  /** Return claims (getClaims), made by `acceptClaim`. */
  const claims: Row[] = [];
  let packageId = 3_000_000_000;
  let lineId = 5_000_000_000;
  let orderNo = 10_000_000;
  const touch = (p: Row, status: string) => {
    p.status = status;
    p.lastModifiedDate = now();
  };
  function generateOrders(n: number): Row[] {
    const out: Row[] = [];
    for (let i = 0; i < n && products.length > 0; i++) {
      const c = generateCustomer(rng, packageId);
      const lines = Array.from({ length: rng.int(1, 3) }, () => {
        const p = rng.pick(products);
        const qty = rng.int(1, 2);
        return {
          id: ++lineId,
          quantity: qty,
          barcode: p.barcode,
          merchantSku: p.stockCode,
          productName: p.title,
          price: p.salePrice,
          amount: Math.round(Number(p.salePrice) * qty * 100) / 100,
          discount: 0,
          vatBaseAmount: p.vatRate,
          currencyCode: "TRY",
          orderLineItemStatusName: "Created",
        };
      });
      const total = Math.round(lines.reduce((s, l) => s + l.amount, 0) * 100) / 100;
      const at = now();
      const addr = {
        firstName: c.firstName,
        lastName: c.lastName,
        company: c.companyName ?? "",
        address1: c.address.line1,
        city: c.address.city,
        district: c.address.district,
        postalCode: c.address.postalCode,
        countryCode: "TR",
        phone: c.phone,
        fullName: `${c.firstName} ${c.lastName}`,
      };
      const p: Row = {
        id: ++packageId,
        orderNumber: String(++orderNo),
        status: "Created",
        customerId: Number(c.id.replace(/\D/g, "")) || packageId,
        customerFirstName: c.firstName,
        customerLastName: c.lastName,
        customerEmail: `pf+${c.email.replace(/@.*/, "")}@trendyolmail.com`,
        tcIdentityNumber: c.tckn,
        shipmentAddress: addr,
        invoiceAddress: { ...addr, taxOffice: c.taxOffice ?? "", taxNumber: c.taxNumber ?? "" },
        lines,
        orderDate: at,
        lastModifiedDate: at,
        grossAmount: total,
        totalDiscount: 0,
        totalPrice: total,
        currencyCode: "TRY",
        cargoProviderName: "Trendyol Express Marketplace",
        cargoTrackingNumber: 7_330_000_000_000 + packageId,
      };
      packages.push(p);
      out.push(p);
    }
    return out;
  }
  generateOrders(opts.orderCount ?? 0);

  const batches = new Map<string, { readyAt: number; items: Row[]; create?: boolean }>();
  const expectedAuth = `Basic ${Buffer.from(`${apiKey}:${apiSecret}`).toString("base64")}`;

  /** Judge, rules, auth, then the kit's gate (count, latency, injected fault). */
  async function handle(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: "read" | "write",
    answer: () => unknown,
  ): Promise<unknown> {
    const recorded = recordedFrom(req, now());
    recorded.path = apiPath(recorded.path);
    if (req.headers.authorization !== expectedAuth) {
      counters.requests++;
      counters.authFailures++;
      counters.errors++;
      return reply.code(401).send({ exception: "ClientApiAuthenticationException" });
    }
    const verdict = judgeTrendyolRequest(recorded);
    const operation = verdict?.operation ?? "unknown";
    const refusal = rules.check(recorded);
    if (refusal) {
      counters.requests++;
      counters.refusedByRules++;
      counters.errors++;
      if (refusal.status === 429) counters.rateLimitViolations++;
      return reply.code(refusal.status).send(refusal.body);
    }
    const gate = await server.gate(req, reply, { kind, operation }, { skipRateLimit: true });
    if (gate === "handled") return reply;
    if (!verdict || verdict.problems.length > 0) {
      counters.rejected++;
      return reply.code(verdict ? 400 : 404).send(error(verdict ? verdict.problems.join("; ") : "Not Found"));
    }
    const body = answer();
    if (gate === "drop") return server.drop(req, reply);
    if (body && typeof body === "object" && "status" in body && "error" in body) {
      const b = body as { status: number; error: unknown };
      return reply.code(b.status).send(b.error);
    }
    return body ?? reply.code(404).send(error("Not Found"));
  }
  const fail = (status: number, message: string) => ({ status, error: error(message) });

  const S = "/integration";
  const Q = (req: FastifyRequest) => req.query as Record<string, string>;
  const app = server.app;

  app.get(`${S}/product/product-categories`, (req, reply) =>
    handle(req, reply, "read", () => ({ categories: tree })),
  );
  app.get(`${S}/product/product-categories/:id/attributes`, (req, reply) =>
    handle(req, reply, "read", () => {
      const id = Number((req.params as Row).id);
      return {
        id,
        name: "Kategori",
        displayName: "Kategori",
        categoryAttributes: EMULATED_CATEGORY_ATTRIBUTES.map((a) => ({ ...a, categoryId: id })),
      };
    }),
  );
  app.get(`${S}/product/sellers/:seller/products`, (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      const size = Number(q.size ?? 50);
      const page = Number(q.page ?? 0);
      let list = products;
      if (q.barcode) list = list.filter((p) => p.barcode === q.barcode);
      if (q.stockCode) list = list.filter((p) => p.stockCode === q.stockCode);
      if (page * size >= 10_000) return fail(400, "page × size may not pass 10,000; use nextPageToken");
      return {
        totalElements: list.length,
        totalPages: Math.ceil(list.length / size),
        page,
        size,
        content: list.slice(page * size, (page + 1) * size),
      };
    }),
  );
  app.post(`${S}/inventory/sellers/:seller/products/price-and-inventory`, (req, reply) =>
    handle(req, reply, "write", () => {
      const items = ((req.body as Row).items as Row[]) ?? [];
      const id = `${randomUUID()}-${Math.floor(now() / 1000)}`;
      const results = items.map((it) => {
        const p = byBarcode.get(String(it.barcode));
        const reasons: string[] = [];
        if (!p) reasons.push("Ürün bulunamadı");
        if (typeof it.quantity === "number" && it.quantity > TRENDYOL_MAX_QUANTITY)
          reasons.push("Stok 20000'den fazla olamaz");
        if (p && reasons.length === 0) {
          if (it.quantity !== undefined) {
            p.quantity = it.quantity;
            counters.stockItems++;
          }
          if (it.salePrice !== undefined) {
            p.salePrice = it.salePrice;
            p.listPrice = it.listPrice ?? it.salePrice;
            counters.priceItems++;
          }
        }
        return { requestItem: it, status: reasons.length ? "FAILED" : "SUCCESS", failureReasons: reasons };
      });
      batches.set(id, { readyAt: now() + (opts.batchDelayMs ?? 0), items: results });
      return { batchRequestId: id };
    }),
  );
  app.get(`${S}/product/sellers/:seller/products/batch-requests/:id`, (req, reply) =>
    handle(req, reply, "read", () => {
      const b = batches.get(String((req.params as Row).id));
      if (!b) return fail(404, "Batch request bulunamadı");
      const ready = now() >= b.readyAt;
      return {
        batchRequestId: (req.params as Row).id,
        // Product create batches carry a batch status too; stock/price ones report items only.
        ...(b.create ? { status: ready ? "COMPLETED" : "IN_PROGRESS" } : {}),
        items: b.items.map((i) =>
          ready ? i : { requestItem: i.requestItem, status: "PROCESSING", failureReasons: [] },
        ),
        creationDate: b.readyAt,
        lastModification: b.readyAt,
        sourceType: "API",
        itemCount: b.items.length,
      };
    }),
  );
  const sorted = () =>
    [...packages].sort(
      (a, b) => Number(a.lastModifiedDate) - Number(b.lastModifiedDate) || Number(a.id) - Number(b.id),
    );
  app.get(`${S}/order/sellers/:seller/orders/stream`, (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      const to = Number(q.lastModifiedEndDate ?? now());
      const from = Number(q.lastModifiedStartDate ?? to - 14 * 86_400_000);
      const size = Number(q.size ?? 50);
      const offset = decodeCursor<number>(q.cursor) ?? 0;
      const list = sorted().filter(
        (p) => Number(p.lastModifiedDate) >= from && Number(p.lastModifiedDate) <= to,
      );
      const content = list.slice(offset, offset + size);
      const hasMore = offset + size < list.length;
      return { content, hasMore, nextCursor: hasMore ? encodeCursor(offset + size) : null };
    }),
  );
  /** One page of a list in Trendyol's page shape (`page` from 0, `size`, totals). */
  const pageOf = (list: Row[], q: Record<string, string | undefined>) => {
    const size = Number(q.size ?? 50);
    const page = Number(q.page ?? 0);
    return {
      page,
      size,
      totalPages: Math.ceil(list.length / size),
      totalElements: list.length,
      content: list.slice(page * size, (page + 1) * size),
    };
  };
  // getClaims: claims made in [startDate, endDate], those with an item in `claimItemStatus`, paged from 0.
  app.get(`${S}/order/sellers/:seller/claims`, (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      const to = Number(q.endDate ?? now());
      const from = Number(q.startDate ?? to - 14 * 86_400_000);
      let list = claims.filter((c) => Number(c.claimDate) >= from && Number(c.claimDate) <= to);
      if (q.claimItemStatus)
        list = list.filter((c) =>
          (c.items as Row[]).some((i) =>
            (i.claimItems as Row[]).some((ci) => (ci.claimItemStatus as Row).name === q.claimItemStatus),
          ),
        );
      if (q.orderNumber) list = list.filter((c) => c.orderNumber === q.orderNumber);
      if (q.claimIds) {
        const ids = new Set(q.claimIds.split(","));
        list = list.filter((c) => ids.has(String(c.claimId)));
      }
      return pageOf(list, q);
    }),
  );
  app.get(`${S}/order/sellers/:seller/orders`, (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      let list = sorted();
      if (q.shipmentPackageIds) {
        const ids = new Set(q.shipmentPackageIds.split(","));
        list = list.filter((p) => ids.has(String(p.id)));
      }
      if (q.orderNumber) list = list.filter((p) => p.orderNumber === q.orderNumber);
      return pageOf(list, q);
    }),
  );
  const pkgOf = (req: FastifyRequest) =>
    packages.find((p) => String(p.id) === String((req.params as Row).id));
  app.put(`${S}/order/sellers/:seller/shipment-packages/:id`, (req, reply) =>
    handle(req, reply, "write", () => {
      const p = pkgOf(req);
      if (!p) return fail(404, "Shipment package bulunamadı");
      const b = req.body as { status: string; lines: Row[] };
      const own = new Set((p.lines as Row[]).map((l) => Number(l.id)));
      if (b.lines.some((l) => !own.has(Number(l.lineId)))) return fail(400, "Line paket içinde değil");
      if (b.status === "Picking" && p.status !== "Created" && p.status !== "Picking")
        return fail(400, `Paket ${String(p.status)} statüsünde, Picking yapılamaz`);
      if (b.status === "Invoiced" && p.status !== "Picking" && p.status !== "Invoiced")
        return fail(400, "Invoiced için paket önce Picking olmalı");
      if (p.status !== b.status) touch(p, b.status);
      return {};
    }),
  );
  app.put(`${S}/order/sellers/:seller/shipment-packages/:id/update-tracking-number`, (req, reply) =>
    handle(req, reply, "write", () => {
      const p = pkgOf(req);
      if (!p) return fail(404, "Shipment package bulunamadı");
      if (["Shipped", "Delivered", "Cancelled", "Returned", "UnDelivered"].includes(String(p.status)))
        return fail(400, "Shipment Update Edilebilir Bir Durumda Değil.");
      p.cargoTrackingNumber = (req.body as Row).trackingNumber;
      p.lastModifiedDate = now();
      return {};
    }),
  );
  app.post(`${S}/sellers/:seller/seller-invoice-links`, (req, reply) =>
    handle(req, reply, "write", () => {
      const b = req.body as Row;
      const p = packages.find((x) => Number(x.id) === Number(b.shipmentPackageId));
      if (!p) return fail(404, "Shipment package bulunamadı");
      if (p.invoiceLink || packages.some((x) => x.invoiceLink === b.invoiceLink))
        return fail(409, "Fatura daha önce gönderilmiş");
      p.invoiceLink = b.invoiceLink;
      return {};
    }),
  );
  registerListingRoutes({
    app,
    prefix: S,
    handle,
    categoryOf,
    tree,
    products,
    byBarcode,
    batches,
    now,
    batchDelayMs: opts.batchDelayMs ?? 0,
  });
  // V1 product writes: the rule refuses them before any handler (410).
  app.route({
    method: ["POST", "PUT"],
    url: `${S}/product/sellers/:seller/products`,
    handler: (req, reply) => handle(req, reply, "write", () => fail(410, "Product V1 retired")),
  });

  const started = await server.start(opts);
  return {
    ...started,
    credentials: { sellerId, apiKey, apiSecret, apiUrl: `${started.url}${S}` },
    products,
    packages,
    rules,
    generateOrders,
    cancelPackage: (id) => {
      const p = packages.find((x) => String(x.id) === id);
      if (p) touch(p, "Cancelled");
    },
    returnPackage: (id) => {
      const p = packages.find((x) => String(x.id) === id);
      if (p) touch(p, "Returned");
    },
    acceptClaim: (id, units) => {
      const p = packages.find((x) => String(x.id) === id);
      if (!p) return;
      const at = now();
      const claimId = `c${claims.length + 1}`;
      const returnedOf = (l: Row) => (units ? (units[String(l.id)] ?? 0) : Number(l.quantity) || 1);
      claims.push({
        id: claimId,
        claimId,
        orderNumber: p.orderNumber,
        orderDate: p.orderDate,
        orderShipmentPackageId: p.id,
        claimDate: at,
        lastModifiedDate: at,
        items: (p.lines as Row[])
          .filter((l) => returnedOf(l) > 0)
          .map((l) => ({
            orderLine: {
              id: l.id,
              barcode: l.barcode,
              merchantSku: l.merchantSku,
              productName: l.productName,
              price: l.price,
            },
            // One claim item per unit returned.
            claimItems: Array.from({ length: returnedOf(l) }, (_, i) => ({
              id: `${claimId}-${l.id}-${i}`,
              orderLineItemId: l.id,
              claimItemStatus: { name: "Accepted" },
              resolved: true,
            })),
          })),
      });
    },
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
  };
}
