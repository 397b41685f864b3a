/**
 * Hepsiburada emulator on the kit, built from the judge (the portal's OpenAPI/Swagger models) and the
 * runtime rules: the three services under `/listing`, `/oms` and `/mpop/product`; every request judged
 * and gated, refused in Hepsiburada's shapes (401, 400 with a plain-text body on the order service as its
 * Swagger declares, `WrongDateFormat` for a date on the cancelled list — the live side by default — and an
 * ISO begindate silently matching nothing). State: listings from the seeded catalogue, categories and
 * attributes, orders as lines (open → packaged → in transit; cancelled by the customer), stock and price
 * uploads whose results are `InProgress` until `uploadDelayMs`, then `Done` with only the refused rows;
 * the catalogue import with its status read (listing.ts).
 */

import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { turkishDateTime } from "../../sdk/turkish-time";
import { generateCatalog, generateCustomer } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import { Prng } from "../../testing/prng";
import { recordedFrom } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { judgeHepsiburadaRequest } from "../judge/requests";
import { hepsiburadaRules } from "../judge/rules";
import { registerListingRoutes } from "./listing";

type Row = Record<string, unknown>;

export interface HepsiburadaEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  merchantId?: string;
  secretKey?: string;
  userAgent?: string;
  uploadDelayMs?: number;
  /** Which side of the cancelled-list date disagreement to play: "live" (refuse) or "openapi" (accept). */
  side?: "live" | "openapi";
}

export interface HepsiburadaCounters extends EmulatorCounters {
  rejected: number;
  refusedByRules: number;
}

export interface HepsiburadaEmulator extends Emulator<HepsiburadaCounters> {
  credentials: Record<string, string>;
  listings: Row[];
  orders: Map<string, Row>;
  packages: Map<string, Row>;
  generateOrders(n: number): Row[];
  cancelOrder(orderNumber: string): void;
  /** The customer's return is accepted (a claim in `Accepted`, or `Refunded`). */
  returnOrder(orderNumber: string, status?: "Accepted" | "Refunded"): void;
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
  rules: RuleGate<ReturnType<typeof recordedFrom>, { status: number; body: unknown }>;
}

export async function startHepsiburadaEmulator(
  opts: HepsiburadaEmulatorOptions = {},
): Promise<HepsiburadaEmulator> {
  const merchantId = opts.merchantId ?? "6fc6d90d-ee1d-4372-b3a6-264b1275e9ff";
  const secretKey = opts.secretKey ?? "Hb7kQ2mX9pLz";
  const userAgent = opts.userAgent ?? "entegrasyonpaneli_dev";
  const seed = opts.seed ?? 1;
  const server = createEmulatorServer<HepsiburadaCounters>(
    {
      ...opts,
      rateLimit: false,
      answers: {
        serverError: { status: 500, body: "Internal Server Error" },
        tooManyRequests: () => "TooManyRequest",
        lock: { status: 409, body: "Conflict" },
        unauthorized: { status: 401, body: "Unauthorized" },
      },
    },
    { rejected: 0, refusedByRules: 0 },
  );
  const { counters, now } = server;
  const rng = new Prng(`${seed}:hepsiburada`);
  const rules = new RuleGate(
    hepsiburadaRules(),
    (v) =>
      v.rule === "hepsiburada.cancelled-no-date-filter"
        ? { status: 400, body: "WrongDateFormat" }
        : { status: 400, body: v.problems.join("; ") },
    { side: opts.side ?? "live" },
  );

  const catalog = generateCatalog({ seed, count: opts.productCount ?? 0 });
  const listings: Row[] = catalog.map((c, i) => ({
    listingId: randomUUID(),
    hepsiburadaSku: `HBV${String(i + 1).padStart(10, "0")}`,
    merchantSku: c.sku,
    price: c.retailPrice,
    availableStock: c.stock1,
    dispatchTime: 2,
    isSalable: true,
    productName: c.name,
    vatRate: c.vatRate,
  }));
  const bySku = new Map(listings.map((l) => [String(l.merchantSku), l]));
  const categories: Row[] = [];
  const seen = new Map<string, number>();
  let cid = 60_000_000;
  for (const c of catalog) {
    if (!seen.has(c.categoryRoot)) {
      seen.set(c.categoryRoot, ++cid);
      categories.push({ categoryId: cid, name: c.categoryRoot, parentCategoryId: null, leaf: false });
    }
    const key = `${c.categoryRoot}/${c.categoryChild}`;
    if (!seen.has(key)) {
      seen.set(key, ++cid);
      categories.push({
        categoryId: cid,
        name: c.categoryChild,
        parentCategoryId: seen.get(c.categoryRoot),
        leaf: true,
      });
    }
  }

  const orders = new Map<string, Row>();
  const cancelled: Row[] = [];
  const claims: Row[] = [];
  const packages = new Map<string, Row>();
  let orderNo = 4_000_000_000;
  let packageNo = 7_000_000;
  const iso = (ms: number) => new Date(ms).toISOString();
  function generateOrders(n: number): Row[] {
    const out: Row[] = [];
    for (let i = 0; i < n && listings.length > 0; i++) {
      const no = String(++orderNo);
      const c = generateCustomer(rng, orderNo);
      const at = iso(now());
      const address = {
        address: c.address.line1,
        city: c.address.city,
        town: c.address.district,
        district: c.address.district,
        countryCode: "TR",
        name: `${c.firstName} ${c.lastName}`,
        phoneNumber: c.phone,
        email: c.email,
        postalCode: c.address.postalCode,
      };
      const items = Array.from({ length: rng.int(1, 3) }, () => {
        const l = rng.pick(listings);
        const qty = rng.int(1, 2);
        const price = Number(l.price);
        return {
          id: randomUUID(),
          orderId: `o-${no}`,
          orderNumber: no,
          merchantId,
          merchantSKU: l.merchantSku,
          sku: l.hepsiburadaSku,
          name: l.productName,
          quantity: qty,
          unitPrice: { amount: price, currency: "TRY" },
          totalPrice: { amount: Math.round(price * qty * 100) / 100, currency: "TRY" },
          vatRate: l.vatRate,
          status: "Open",
          orderDate: at,
          lastStatusUpdateDate: at,
          customerName: address.name,
          cargoCompany: "HepsiJET",
          shippingAddress: address,
          packageNumber: "",
        };
      });
      const o: Row = {
        orderId: `o-${no}`,
        orderNumber: no,
        orderDate: at,
        createdDate: at,
        customer: { customerId: randomUUID(), name: address.name },
        deliveryAddress: address,
        invoice: {
          address,
          taxNumber: c.taxNumber ?? "",
          taxOffice: c.taxOffice ?? "",
          turkishIdentityNumber: c.tckn,
        },
        items,
        paymentStatus: "Paid",
      };
      orders.set(no, o);
      out.push(o);
    }
    return out;
  }
  generateOrders(opts.orderCount ?? 0);

  const uploads = new Map<
    string,
    { readyAt: number; errors: Row[]; priceValidations?: Row[]; total: number }
  >();
  const expectedAuth = `Basic ${Buffer.from(`${merchantId}:${secretKey}`).toString("base64")}`;

  async function handle(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: "read" | "write",
    answer: () => unknown,
  ) {
    const recorded = recordedFrom(req, now());
    if (req.headers.authorization !== expectedAuth) {
      counters.requests++;
      counters.authFailures++;
      counters.errors++;
      return reply.code(401).send("Unauthorized");
    }
    const refusal = rules.check(recorded);
    if (refusal) {
      counters.requests++;
      counters.refusedByRules++;
      counters.errors++;
      return reply.code(refusal.status).send(refusal.body);
    }
    const verdict = judgeHepsiburadaRequest(recorded);
    const gate = await server.gate(
      req,
      reply,
      { kind, operation: verdict?.operation ?? "unknown" },
      { skipRateLimit: true },
    );
    if (gate === "handled") return reply;
    if (!verdict || verdict.problems.length > 0) {
      counters.rejected++;
      return reply.code(verdict ? 400 : 404).send(verdict ? verdict.problems.join("; ") : "Not Found");
    }
    const body = answer();
    if (gate === "drop") return server.drop(req, reply);
    if (body && typeof body === "object" && "failStatus" in body) {
      const b = body as { failStatus: number; text: string };
      return reply.code(b.failStatus).send(b.text);
    }
    if (body === undefined) return reply.code(204).send();
    return body;
  }
  const fail = (failStatus: number, text: string) => ({ failStatus, text });
  const Q = (req: FastifyRequest) => req.query as Record<string, string>;
  const P = (req: FastifyRequest) => req.params as Record<string, string>;
  const app = server.app;
  const L = `/listing/listings/merchantid/:m`;

  app.get(L, (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      let list = listings;
      if (q.merchantSkuList) {
        const want = new Set(q.merchantSkuList.split(","));
        list = list.filter((l) => want.has(String(l.merchantSku)));
      }
      const offset = Number(q.offset ?? 0);
      const limit = Number(q.limit ?? 10);
      return { listings: list.slice(offset, offset + limit), totalCount: list.length, limit, offset };
    }),
  );
  const upload = (kind: "stock" | "price") => (req: FastifyRequest, reply: FastifyReply) =>
    handle(req, reply, "write", () => {
      const rows = req.body as Row[];
      const errors: Row[] = [];
      const priceValidations: Row[] = [];
      rows.forEach((r, elementNo) => {
        const l = bySku.get(String(r.merchantSku));
        if (!l) {
          errors.push({
            elementNo,
            merchantSku: r.merchantSku ?? null,
            hepsiburadaSku: null,
            errors: ["Listing bulunamadı"],
          });
          return;
        }
        if (kind === "stock") l.availableStock = r.availableStock;
        else if (Number(r.price) < Number(l.price) * 0.2)
          priceValidations.push({
            elementNo,
            merchantSku: r.merchantSku,
            hepsiburadaSku: l.hepsiburadaSku,
            type: "OutOfPriceRange",
            minPrice: Math.round(Number(l.price) * 0.2 * 100) / 100,
            maxPrice: Math.round(Number(l.price) * 5 * 100) / 100,
            description: "Fiyat bant dışında",
          });
        else l.price = r.price;
      });
      const id = randomUUID();
      uploads.set(id, {
        readyAt: now() + (opts.uploadDelayMs ?? 0),
        errors,
        priceValidations,
        total: rows.length,
      });
      return { id };
    });
  const result = (kind: "stock" | "price") => (req: FastifyRequest, reply: FastifyReply) =>
    handle(req, reply, "read", () => {
      const u = uploads.get(P(req).id ?? "");
      if (!u) return fail(404, "Not Found");
      const done = now() >= u.readyAt;
      return {
        id: P(req).id,
        status: done ? "Done" : "InProgress",
        createdAt: iso(u.readyAt),
        total: u.total,
        errors: done ? u.errors : null,
        ...(kind === "price" ? { priceValidations: done ? u.priceValidations : null } : {}),
      };
    });
  app.post(`${L}/stock-uploads`, upload("stock"));
  app.post(`${L}/price-uploads`, upload("price"));
  app.get(`${L}/stock-uploads/id/:id`, result("stock"));
  app.get(`${L}/price-uploads/id/:id`, result("price"));

  const O = "/oms/orders/merchantid/:m";
  /** The Turkish wall-clock minute of an ISO instant, as the filter compares it. */
  const hbMinute = (isoText: unknown) => turkishDateTime(Date.parse(String(isoText))).slice(0, 16);
  app.get(O, (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      // An ISO begindate is accepted and matches nothing (live finding); the right format filters.
      const iso8601 = /T/.test(q.begindate ?? "") || /T/.test(q.enddate ?? "");
      const lines = [...orders.values()]
        .flatMap((o) => o.items as Row[])
        .filter((l) => l.status === "Open" && !iso8601)
        .filter((l) => !q.begindate || hbMinute(l.orderDate) >= q.begindate)
        .filter((l) => !q.enddate || hbMinute(l.orderDate) <= q.enddate);
      const offset = Number(q.offset ?? 0);
      const limit = Number(q.limit);
      return {
        items: lines.slice(offset, offset + limit),
        totalCount: lines.length,
        limit,
        offset,
        pageCount: Math.ceil(lines.length / limit),
      };
    }),
  );
  app.get(`${O}/cancelled`, (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      const offset = Number(q.offset ?? 0);
      const limit = Number(q.limit ?? 50);
      return { items: cancelled.slice(offset, offset + limit), totalCount: cancelled.length, limit, offset };
    }),
  );
  app.get(`${O}/ordernumber/:no`, (req, reply) =>
    handle(req, reply, "read", () => orders.get(P(req).no ?? "") ?? fail(404, "Not Found")),
  );

  app.get("/oms/claims/merchantId/:m", (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      const list = claims
        .filter((c) => !q.beginDate || hbMinute(c.claimDate) >= q.beginDate)
        .filter((c) => !q.endDate || hbMinute(c.claimDate) <= q.endDate);
      const offset = Number(q.offset ?? 0);
      reply.header("x-total-count", String(list.length));
      return list.slice(offset, offset + Number(q.limit ?? 10));
    }),
  );

  const K = "/oms/packages/merchantid/:m";
  app.post(K, (req, reply) =>
    handle(req, reply, "write", () => {
      const b = req.body as { lineItemRequests: Row[] };
      const all = [...orders.values()].flatMap((o) => o.items as Row[]);
      const lines = b.lineItemRequests.map((r) => all.find((l) => l.id === r.id));
      if (lines.some((l) => l?.status !== "Open")) return fail(400, "Kalem paketlenebilir durumda değil");
      const pn = String(++packageNo);
      for (const l of lines as Row[]) {
        l.packageNumber = pn;
        l.status = "Packaged";
        l.lastStatusUpdateDate = iso(now());
      }
      packages.set(pn, { packageNumber: pn, barcode: `HBP${pn}`, status: "Packaged", lines });
      return { packageNumber: pn, barcode: `HBP${pn}` };
    }),
  );
  const pkg = (req: FastifyRequest) => packages.get(P(req).pn ?? "");
  app.post(`${K}/packagenumber/:pn/intransit`, (req, reply) =>
    handle(req, reply, "write", () => {
      const p = pkg(req);
      if (!p) return fail(404, "Not Found");
      p.status = "InTransit";
      p.trackingNumber = (req.body as Row).trackingNumber;
      for (const l of p.lines as Row[]) l.status = "InTransit";
      return "OK";
    }),
  );
  app.put(`${K}/packagenumber/:pn/invoice`, (req, reply) =>
    handle(req, reply, "write", () => {
      const p = pkg(req);
      if (!p) return fail(404, "Not Found");
      p.invoiceLink = (req.body as Row).invoiceLink;
      return undefined;
    }),
  );

  const C = "/mpop/product/api/categories";
  app.get(`${C}/get-all-categories`, (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      const size = Number(q.size ?? 20);
      const page = Number(q.page ?? 0);
      return {
        success: true,
        totalElements: categories.length,
        totalPages: Math.ceil(categories.length / size),
        number: page,
        data: categories.slice(page * size, (page + 1) * size),
      };
    }),
  );
  registerListingRoutes({
    app,
    handle,
    merchantId,
    categories,
    listings,
    bySku,
    now,
    uploadDelayMs: opts.uploadDelayMs ?? 0,
  });

  const started = await server.start(opts);
  return {
    ...started,
    credentials: {
      merchantId,
      secretKey,
      userAgent,
      listingUrl: `${started.url}/listing`,
      orderUrl: `${started.url}/oms`,
      catalogUrl: `${started.url}/mpop/product`,
    },
    listings,
    orders,
    packages,
    rules,
    generateOrders,
    cancelOrder: (no) => {
      const o = orders.get(no);
      if (!o) return;
      for (const l of o.items as Row[]) {
        l.status = "Cancelled";
        cancelled.push({
          orderNumber: no,
          lineItemId: l.id,
          merchantId,
          merchantSku: l.merchantSKU,
          sku: l.sku,
          quantity: l.quantity,
          cancelDate: iso(now()),
          cancelledBy: "Customer",
          cancelReasonCode: "CustomerRequest",
        });
      }
    },
    returnOrder: (no, status = "Accepted") => {
      const o = orders.get(no);
      for (const l of (o?.items ?? []) as Row[])
        claims.push({
          id: randomUUID(),
          number: `C${claims.length + 1}`,
          claimType: "Return",
          status,
          claimDate: iso(now()),
          orderNumber: no,
          orderDate: o?.orderDate,
          sku: l.sku,
          quantity: l.quantity,
          customerName: (o?.customer as Row | undefined)?.name,
          priceAmount: (l.unitPrice as Row).amount,
          priceCurrency: "TRY",
        });
    },
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
  };
}
