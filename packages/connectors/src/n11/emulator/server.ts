/**
 * n11 emulator on the kit, built from the judge: every request is judged (judge/requests.ts) and the
 * runtime rules (judge/rules.ts) gate it, so what n11 refuses is refused here in its shapes — a wrong key
 * pair is 401 `SellerApiUserUnauthorizedException` on /ms, 400 `SELLER_API.authenticationFailed` on /rest
 * and 403 "Authentication failed" on /cdn; a task that breaks a price rule is answered `REJECT` inside
 * HTTP 200; the retired SOAP product writes are refused. What n11 does silently it does silently here: an
 * order window wider than 15 days is answered with its last 15 days, a page size over 100 with 100.
 * State: the seller's products from the seeded catalogue (stockCode, barcode, productMainId) and those
 * product-create tasks opened (checked as n11 checks them: stock code, brand, attribute values, shipment
 * template), the category tree and attributes, shipment packages with status changes, cancellations and returns, and product tasks
 * whose SKU results are ready after `taskDelayMs`.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { categoryTree, generateCatalog, generateCustomer } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import { Prng } from "../../testing/prng";
import { recordedFrom } from "../../testing/recorder";
import { RuleGate } from "../../testing/runtime-rules";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { N11_ORDER_PAGE, N11_ORDER_WINDOW_MS } from "../descriptor";
import { apiPath, judgeN11Request } from "../judge/requests";
import { N11_SILENT_RULES, n11Rules } from "../judge/rules";

type Row = Record<string, unknown>;

export interface N11EmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  appKey?: string;
  appSecret?: string;
  /** When a task's SKU results become readable (n11: seconds). */
  taskDelayMs?: number;
  /** The order listing's minute, scaled by tests. */
  orderWindowMs?: number;
  /** The seller's shipment templates (Seller Office → Kargo Ayarları), by name. */
  shipmentTemplates?: string[];
}

export interface N11Counters extends EmulatorCounters {
  rejected: number;
  refusedByRules: number;
  rejectedTasks: number;
  stockItems: number;
  priceItems: number;
}

export interface N11Emulator extends Emulator<N11Counters> {
  credentials: {
    appKey: string;
    appSecret: string;
    integratorName: string;
    shipmentTemplate: string;
    apiUrl: string;
  };
  products: Row[];
  packages: Row[];
  generateOrders(n: number): Row[];
  /** The customer cancels a package / returns it: it shows up as changed. */
  cancelPackage(id: string): void;
  returnPackage(id: string): void;
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
  rules: RuleGate<ReturnType<typeof recordedFrom>, { status: number; body: unknown }>;
}

/** n11's error answers differ by path family (read live 2026-10-10, loncadev/lonca RESEARCH.md §11). */
function errorOf(path: string, status: number, message: string): { status: number; body: unknown } {
  if (path.startsWith("/rest/"))
    return {
      status,
      body: {
        code: status,
        status: "failure",
        errorCode: "SELLER_API.invalidRequest",
        errorMessage: message,
        errorCategory: "SELLER_API",
      },
    };
  if (path.startsWith("/cdn/")) return { status, body: { errorCode: "invalidInput", errorMessage: message } };
  return {
    status,
    body: {
      "@type": "BadRequestException",
      name: "BadRequestException",
      message,
      errors: [{ reason: message }],
    },
  };
}

const dmy = (ms: number) => {
  const d = new Date(ms + 3 * 3_600_000); // n11 writes task dates in Turkish time, dd-MM-yyyy HH:mm:ss
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}-${p(d.getUTCMonth() + 1)}-${d.getUTCFullYear()} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}`;
};

export async function startN11Emulator(opts: N11EmulatorOptions = {}): Promise<N11Emulator> {
  const appKey = opts.appKey ?? "n11-emulator-key";
  const appSecret = opts.appSecret ?? "n11-emulator-secret";
  const seed = opts.seed ?? 1;
  const server = createEmulatorServer<N11Counters>(
    {
      ...opts,
      rateLimit: false,
      answers: {
        serverError: {
          status: 500,
          body: { "@type": "InternalServerException", message: "Internal Server Error" },
        },
        tooManyRequests: () => ({ "@type": "TooManyRequestsException", message: "Too Many Requests" }),
        lock: { status: 409, body: { "@type": "ConflictException", message: "Conflict" } },
        unauthorized: { status: 401, body: { "@type": "SellerApiUserUnauthorizedException" } },
      },
    },
    { rejected: 0, refusedByRules: 0, rejectedTasks: 0, stockItems: 0, priceItems: 0 },
  );
  const { counters, now } = server;
  const rng = new Prng(`${seed}:n11`);
  const rules = new RuleGate(
    n11Rules({ orderWindowMs: opts.orderWindowMs }).filter((r) => !N11_SILENT_RULES.has(r.id)),
    (v, r) => {
      const path = apiPath(r.path);
      const message = v.problems.join("; ");
      if (v.rule === "n11.orders-1000-per-minute")
        return { status: 429, body: { "@type": "TooManyRequestsException", message: "Too Many Requests" } };
      if (v.rule === "n11.soap-product-writes-retired")
        return {
          status: 410,
          body: { "@type": "GoneException", message: "Bu servis kapatılmıştır, REST API kullanınız" },
        };
      // A missing header: /ms answers 500 MissingRequestHeaderException, /rest a 400 (read live).
      if (v.rule === "n11.auth-headers" || v.rule === "n11.category-secret")
        return path.startsWith("/rest/")
          ? {
              status: 400,
              body: {
                code: 400,
                status: "failure",
                errorCode: "SELLER_API.authenticationFailed",
                errorMessage: message,
                errorCategory: "SELLER_API",
              },
            }
          : path.startsWith("/cdn/")
            ? { status: 403, body: "Authentication failed" }
            : {
                status: 500,
                body: {
                  "@type": "InternalServerException",
                  message: `MissingRequestHeaderException: ${message}`,
                },
              };
      // Task rules: n11 takes the request and REJECTs the task (HTTP 200).
      counters.rejectedTasks++;
      const type = path.endsWith("/product-create") ? "PRODUCT_CREATE" : "SKU_UPDATE";
      return { status: 200, body: { id: null, type, status: "REJECT", reasons: v.problems } };
    },
  );

  // Catalogue: one active product per SKU; categories from the catalogue's two levels (leaves: subCategories null).
  const catalog = generateCatalog({ seed, count: opts.productCount ?? 0 });
  const { tree, categoryOf } = categoryTree(1_000_000, null);
  const products: Row[] = catalog.map((item, i) => ({
    n11ProductId: 700_000_000 + i,
    sellerId: 4242,
    sellerNickname: "emulatormagaza",
    stockCode: item.sku,
    title: item.name,
    categoryId: categoryOf(item.categoryRoot, item.categoryChild),
    productMainId: item.modelCode,
    status: "Active",
    saleStatus: "On_Sale",
    barcode: item.barcode,
    salePrice: item.retailPrice,
    listPrice: item.retailPrice,
    quantity: item.stock1,
    currencyType: "TL",
    vatRate: item.vatRate,
    commissionRate: 15,
    // Who ships it: the seller, or n11's own warehouse (n11depom, `sender: "N11"`).
    sender: "SELLER",
  }));
  const byCode = new Map(products.map((p) => [String(p.stockCode), p]));
  const leaves = new Set(tree.flatMap((t) => (t.subCategories ?? []).map((c) => c.id)));

  const packages: Row[] = [];
  let packageId = 112_999_000_000_000;
  let lineId = 40_000_000;
  let orderNo = 203_870_000_000;
  const touch = (p: Row, status: string) => {
    p.shipmentPackageStatus = status;
    p.lastModifiedDate = now();
    (p.packageHistories as Row[]).push({ status, createdDate: now() });
  };
  function generateOrders(n: number): Row[] {
    const out: Row[] = [];
    for (let i = 0; i < n && products.length > 0; i++) {
      const c = generateCustomer(rng, packageId);
      const lines = Array.from({ length: rng.int(1, 3) }, () => {
        const p = rng.pick(products);
        const qty = rng.int(1, 2);
        const amount = Math.round(Number(p.salePrice) * qty * 100) / 100;
        return {
          orderLineId: ++lineId,
          productId: p.n11ProductId,
          productName: p.title,
          stockCode: p.stockCode,
          barcode: p.barcode,
          quantity: qty,
          price: p.salePrice,
          dueAmount: amount,
          sellerInvoiceAmount: amount,
          sellerDiscount: 0,
          sellerCouponDiscount: 0,
          mallDiscount: 0,
          vatRate: p.vatRate,
          commissionRate: 15,
          orderItemLineItemStatusName: "Created",
          variantAttributes: [],
        };
      });
      const total = Math.round(lines.reduce((s, l) => s + l.sellerInvoiceAmount, 0) * 100) / 100;
      const at = now();
      const fullName = `${c.firstName} ${c.lastName}`;
      const addr = {
        fullName,
        address: c.address.line1,
        city: c.address.city,
        district: c.address.district,
        neighborhood: "Merkez",
        postalCode: c.address.postalCode,
        gsm: c.phone,
        tcId: c.tckn,
      };
      const p: Row = {
        id: ++packageId,
        orderNumber: String(++orderNo),
        shipmentPackageStatus: "Created",
        customerId: Number(c.id.replace(/\D/g, "")) || packageId,
        customerfullName: fullName,
        customerEmail: `${c.email.replace(/@.*/, "")}@n11.com`,
        tcIdentityNumber: c.tckn,
        taxId: c.taxNumber ?? null,
        taxOffice: c.taxOffice ?? null,
        shippingAddress: addr,
        billingAddress: {
          ...addr,
          taxId: c.taxNumber ?? null,
          taxHouse: c.taxOffice ?? null,
          invoiceType: c.taxNumber ? 2 : 1,
        },
        lines,
        totalAmount: total,
        totalDiscountAmount: 0,
        cargoProviderName: "Yurtiçi Kargo",
        cargoTrackingNumber: String(800_000_000 + (packageId % 100_000_000)),
        packageHistories: [{ status: "Created", createdDate: at }],
        lastModifiedDate: at,
      };
      packages.push(p);
      out.push(p);
    }
    return out;
  }
  generateOrders(opts.orderCount ?? 0);

  const NOT_LEAF = "Kategori bulunamadı veya en alt kırılım değil";
  const templates = new Set(opts.shipmentTemplates ?? ["Standart Kargo"]);
  /** Every leaf's attributes: Marka (the brand; free text allowed), Renk (mandatory, listed), Beden (variant). */
  const attributesOf = (_categoryId: number): Row[] => {
    const attr = (attributeId: number, attributeName: string, flags: Row, values: string[]) => ({
      attributeId,
      attributeName,
      isMandatory: false,
      isVariant: false,
      isSlicer: false,
      isCustomValue: false,
      isN11Grouping: false,
      attributeOrder: attributeId,
      ...flags,
      attributeValues: values.map((value, i) => ({ id: attributeId * 1000 + i, value })),
    });
    return [
      attr(1, "Marka", { isMandatory: true, isCustomValue: true }, ["Koton", "LC Waikiki", "Mavi"]),
      attr(2, "Renk", { isMandatory: true, isSlicer: true }, ["Siyah", "Beyaz", "Lacivert"]),
      attr(3, "Beden", { isVariant: true }, ["S", "M", "L", "XL"]),
    ];
  };
  /**
   * One product-create SKU checked as n11 checks it; its FAIL reasons in n11's words where the error list
   * gives them (stock code used, brand missing, value id unknown, shipment template), else inferred.
   */
  const createProblems = (s: Row): string[] => {
    const code = String(s.stockCode);
    const category = Number(s.categoryId);
    if (!leaves.has(category)) return [NOT_LEAF];
    const out: string[] = [];
    // Any sender's: a code held in n11depom is used too.
    if (products.some((p) => p.stockCode === code))
      out.push(`Girdiğiniz ${code} seller stock code tarafınızdan kullanılmaktadır`);
    if (!templates.has(String(s.shipmentTemplate))) out.push("shipmentTemplate alanı geçersizdir");
    const given = new Map(((s.attributes as Row[]) ?? []).map((a) => [Number(a.id), a]));
    for (const a of attributesOf(category)) {
      const v = given.get(Number(a.attributeId));
      const values = a.attributeValues as Row[];
      if (!v) {
        if (a.isMandatory)
          out.push(
            a.attributeName === "Marka"
              ? "Marka bilgisi girilmelidir"
              : `${a.attributeName} özelliği zorunludur`,
          );
      } else if (v.valueId !== null && v.valueId !== undefined) {
        if (!values.some((x) => x.id === v.valueId))
          out.push(`${String(v.valueId)} idli özellik değeri kategorisinde bulunmamaktadır`);
      } else if (!a.isCustomValue)
        out.push(`${a.attributeName} için listedeki değerlerden biri seçilmelidir`);
    }
    return out;
  };

  const tasks = new Map<number, { readyAt: number; createdAt: number; items: Row[] }>();
  let nextTask = 1000;

  /** Auth by path family, judge, rules, then the kit's gate (count, latency, injected fault). */
  async function handle(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: "read" | "write",
    answer: () => unknown,
  ): Promise<unknown> {
    const recorded = recordedFrom(req, now());
    recorded.path = apiPath(recorded.path);
    const path = recorded.path;
    const key = String(req.headers.appkey ?? "");
    const secret = String(req.headers.appsecret ?? "");
    const wrongPair = key !== "" && secret !== "" && (key !== appKey || secret !== appSecret);
    if (wrongPair || (path.startsWith("/cdn/") && key !== "" && key !== appKey)) {
      counters.requests++;
      counters.authFailures++;
      counters.errors++;
      if (path.startsWith("/rest/"))
        return reply.code(400).send({
          code: 400,
          status: "failure",
          errorCode: "SELLER_API.authenticationFailed",
          errorMessage: "Authentication failed",
          errorCategory: "SELLER_API",
        });
      if (path.startsWith("/cdn/")) return reply.code(403).type("text/plain").send("Authentication failed");
      return reply.code(401).send({
        "@type": "SellerApiUserUnauthorizedException",
        name: "SellerApiUserUnauthorizedException",
        message: "Unauthorized",
        errors: [],
      });
    }
    const verdict = judgeN11Request(recorded);
    const operation = verdict?.operation ?? "unknown";
    const refusal = rules.check(recorded);
    if (refusal) {
      counters.requests++;
      counters.refusedByRules++;
      if (refusal.status !== 200) counters.errors++;
      if (refusal.status === 429) counters.rateLimitViolations++;
      return reply.code(refusal.status).send(refusal.body);
    }
    const gate = await server.gate(req, reply, { kind, operation }, { skipRateLimit: true });
    if (gate === "handled") return reply;
    if (!verdict || verdict.problems.length > 0) {
      counters.rejected++;
      const e = errorOf(path, verdict ? 400 : 404, verdict ? verdict.problems.join("; ") : "Not Found");
      return reply.code(e.status).send(e.body);
    }
    const body = answer();
    if (gate === "drop") return server.drop(req, reply);
    if (body && typeof body === "object" && "status" in body && "error" in body) {
      const b = body as { status: number; error: string };
      const e = errorOf(path, b.status, b.error);
      return reply.code(e.status).send(e.body);
    }
    return body;
  }
  const fail = (status: number, error: string) => ({ status, error });
  /** SaveLinkSellerInvoice on the order's packages; a wrong key pair or order is n11's `failure`. */
  const saveInvoiceLink = (body: string, reply: FastifyReply) => {
    const field = (name: string) =>
      new RegExp(`<(?:\\w+:)?${name}>([\\s\\S]*?)</(?:\\w+:)?${name}>`).exec(body)?.[1]?.trim() ?? "";
    // The text is returned, not sent: the kit may still drop the connection after the write.
    reply.type("text/xml; charset=utf-8");
    const answer = (status: "success" | "failure", errorMessage?: string) =>
      `<SOAP-ENV:Envelope xmlns:SOAP-ENV="http://schemas.xmlsoap.org/soap/envelope/"><SOAP-ENV:Body><ns3:SaveLinkSellerInvoiceResponse xmlns:ns3="http://www.n11.com/ws/schemas"><result><status>${status}</status>${errorMessage ? `<errorCode>SELLER_API.invoice</errorCode><errorMessage>${errorMessage}</errorMessage><errorCategory>SELLER_API</errorCategory>` : ""}</result></ns3:SaveLinkSellerInvoiceResponse></SOAP-ENV:Body></SOAP-ENV:Envelope>`;
    if (field("appKey") !== appKey || field("appSecret") !== appSecret) {
      counters.authFailures++;
      return answer("failure", "Yetkisiz erişim: appKey / appSecret hatalı");
    }
    const orderNumber = field("orderNumber");
    const mine = packages.filter((p) => String(p.orderNumber) === orderNumber);
    if (mine.length === 0) return answer("failure", "Sipariş bulunamadı");
    // Inferred (no source shows it): a cancelled order takes no invoice.
    if (mine.every((p) => p.shipmentPackageStatus === "Cancelled"))
      return answer("failure", "İptal edilmiş siparişe fatura linki eklenemez");
    const url = field("url").replace(/&amp;/g, "&");
    for (const p of mine) p.invoiceLink = url;
    return answer("success");
  };
  const Q = (req: FastifyRequest) => req.query as Record<string, string>;
  const app = server.app;

  app.get("/cdn/categories", (req, reply) => handle(req, reply, "read", () => ({ categories: tree })));
  app.get("/cdn/category/:id/attribute", (req, reply) =>
    handle(req, reply, "read", () => {
      const id = Number((req.params as Row).id);
      if (!leaves.has(id)) return fail(400, NOT_LEAF);
      return { id, name: "Kategori", categoryAttributes: attributesOf(id) };
    }),
  );
  app.get("/ms/product-query", (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      const size = Number(q.size ?? 20);
      const page = Number(q.page ?? 0);
      // Without `sender` only the seller's own products (n11depom stock is n11's: `sender=N11` or `ALL`).
      const sender = q.sender ?? "SELLER";
      let list = sender === "ALL" ? products : products.filter((p) => p.sender === sender);
      if (q.stockCode) list = list.filter((p) => p.stockCode === q.stockCode);
      // A page past the end is an empty page (read live), not an error.
      return {
        content: list.slice(page * size, (page + 1) * size),
        totalElements: list.length,
        totalPages: Math.ceil(list.length / size),
        number: page,
        size,
        first: page === 0,
        last: (page + 1) * size >= list.length,
        empty: page * size >= list.length,
      };
    }),
  );
  /**
   * A product task: each SKU applied by `apply` (its FAIL reasons, none for SUCCESS), its lines readable
   * through task-details after `taskDelayMs`; answered `IN_QUEUE` with the task id.
   */
  const queueTask = (req: FastifyRequest, type: string, apply: (sku: Row) => string[]) => {
    const skus = ((req.body as Row).payload as Row).skus as Row[];
    const id = ++nextTask;
    const items = skus.map((s, i) => {
      const reasons = apply(s);
      const status = reasons.length ? "FAIL" : "SUCCESS";
      return { id: id * 10_000 + i, ownerId: 4242, itemCode: s.stockCode, status, reasons, sku: s };
    });
    tasks.set(id, { readyAt: now() + (opts.taskDelayMs ?? 0), createdAt: now(), items });
    return { id, type, status: "IN_QUEUE", reasons: [`${skus.length} sku işlenmeye alındı.`] };
  };
  app.post("/ms/product/tasks/price-stock-update", (req, reply) =>
    handle(req, reply, "write", () =>
      queueTask(req, "SKU_UPDATE", (s) => {
        const p = byCode.get(String(s.stockCode));
        if (!p) return ["Stok kodu bulunamadı."];
        if (s.quantity !== undefined) {
          p.quantity = s.quantity;
          counters.stockItems++;
        }
        if (s.salePrice !== undefined) {
          p.salePrice = s.salePrice;
          p.listPrice = s.listPrice;
          counters.priceItems++;
        }
        return [];
      }),
    ),
  );
  app.post("/ms/product/tasks/product-create", (req, reply) =>
    handle(req, reply, "write", () =>
      queueTask(req, "PRODUCT_CREATE", (s) => {
        const reasons = createProblems(s);
        if (reasons.length > 0) return reasons;
        const p: Row = {
          n11ProductId: 700_000_000 + products.length,
          sellerId: 4242,
          sellerNickname: "emulatormagaza",
          stockCode: s.stockCode,
          title: s.title,
          description: s.description,
          categoryId: s.categoryId,
          productMainId: s.productMainId,
          // A new product waits for n11's catalogue approval.
          status: "InCatalogApproval",
          saleStatus: "Before_Sale",
          barcode: s.barcode,
          salePrice: s.salePrice,
          listPrice: s.listPrice,
          quantity: s.quantity,
          currencyType: s.currencyType,
          vatRate: s.vatRate,
          preparingDay: s.preparingDay,
          shipmentTemplate: s.shipmentTemplate,
          attributes: s.attributes,
          imageUrls: ((s.images as Row[]) ?? []).map((img) => img.url),
          sender: "SELLER",
        };
        products.push(p);
        byCode.set(String(s.stockCode), p);
        return [];
      }),
    ),
  );
  app.post("/ms/product/task-details/page-query", (req, reply) =>
    handle(req, reply, "read", () => {
      const b = req.body as { taskId: number; pageable?: { page?: number; size?: number } };
      const t = tasks.get(b.taskId);
      if (!t) return fail(400, "Task bulunamadı");
      const ready = now() >= t.readyAt;
      const page = b.pageable?.page ?? 0;
      const size = b.pageable?.size ?? 20;
      const content = ready ? t.items.slice(page * size, (page + 1) * size) : [];
      return {
        taskId: b.taskId,
        createdDate: dmy(t.createdAt),
        modifiedDate: dmy(ready ? t.readyAt : t.createdAt),
        status: ready ? "PROCESSED" : "IN_QUEUE",
        reasons: [],
        skus: {
          content,
          totalElements: ready ? t.items.length : 0,
          totalPages: ready ? Math.ceil(t.items.length / size) : 0,
          number: page,
          size,
        },
      };
    }),
  );
  const sorted = () =>
    [...packages].sort(
      (a, b) => Number(a.lastModifiedDate) - Number(b.lastModifiedDate) || Number(a.id) - Number(b.id),
    );
  app.get("/rest/delivery/v1/shipmentPackages", (req, reply) =>
    handle(req, reply, "read", () => {
      const q = Q(req);
      // n11's windows: 15 days at most, clamped silently to the end (or from a lone start).
      let to = q.endDate !== undefined ? Number(q.endDate) : undefined;
      let from = q.startDate !== undefined ? Number(q.startDate) : undefined;
      if (from === undefined && to === undefined) to = now();
      if (to === undefined) to = Number(from) + N11_ORDER_WINDOW_MS;
      if (from === undefined || to - from > N11_ORDER_WINDOW_MS) from = to - N11_ORDER_WINDOW_MS;
      let list = q.packageIds
        ? sorted()
        : sorted().filter(
            (p) => Number(p.lastModifiedDate) >= Number(from) && Number(p.lastModifiedDate) <= Number(to),
          );
      if (q.packageIds) {
        const ids = new Set(q.packageIds.split(","));
        list = list.filter((p) => ids.has(String(p.id)));
      }
      if (q.status) list = list.filter((p) => p.shipmentPackageStatus === q.status);
      if (q.orderNumber) list = list.filter((p) => p.orderNumber === q.orderNumber);
      if (q.orderByDirection === "DESC") list.reverse();
      const size = Math.min(Number(q.size ?? N11_ORDER_PAGE), N11_ORDER_PAGE);
      const page = Number(q.page ?? 0);
      const content = list.slice(page * size, (page + 1) * size);
      return { pageCount: content.length, totalPages: Math.ceil(list.length / size), page, size, content };
    }),
  );
  app.put("/rest/order/v1/update", (req, reply) =>
    handle(req, reply, "write", () => {
      const b = req.body as { lines: Array<{ lineId: number }>; status: string };
      const results = b.lines.map(({ lineId }) => {
        const pkg = packages.find((p) => (p.lines as Row[]).some((l) => l.orderLineId === lineId));
        const line = (pkg?.lines as Row[] | undefined)?.find((l) => l.orderLineId === lineId);
        if (!pkg || !line) return { lineId, status: "FAIL", reason: "Sipariş kalemi bulunamadı" };
        if (line.orderItemLineItemStatusName !== "Created" && line.orderItemLineItemStatusName !== "Picking")
          return {
            lineId,
            status: "FAIL",
            reason: `Kalem ${String(line.orderItemLineItemStatusName)} statüsünde, onaylanamaz`,
          };
        line.orderItemLineItemStatusName = "Picking";
        if (
          (pkg.lines as Row[]).every((l) => l.orderItemLineItemStatusName === "Picking") &&
          pkg.shipmentPackageStatus !== "Picking"
        )
          touch(pkg, "Picking");
        return { lineId, status: "SUCCESS", reason: null };
      });
      return { content: results };
    }),
  );
  // SOAP product writes: the retirement rule refuses them before any handler (410).
  if (!app.hasContentTypeParser("text/xml"))
    app.addContentTypeParser("text/xml", { parseAs: "string" }, (_req, body, done) => done(null, body));
  // The invoice link (SOAP SaveLinkSellerInvoice): the key pair in the body, n11's `result/status` answer.
  app.post("/ws/SellerInvoiceService", (req, reply) =>
    handle(req, reply, "write", () => saveInvoiceLink(String(req.body ?? ""), reply)),
  );
  app.post("/ws/:service", (req, reply) => handle(req, reply, "write", () => fail(410, "closed")));

  const started = await server.start(opts);
  return {
    ...started,
    credentials: {
      appKey,
      appSecret,
      integratorName: "EntegrasyonPaneli",
      shipmentTemplate: [...templates][0] ?? "",
      apiUrl: started.url,
    },
    products,
    packages,
    rules,
    generateOrders,
    cancelPackage: (id) => {
      const p = packages.find((x) => String(x.id) === id);
      if (p) {
        for (const l of p.lines as Row[]) l.orderItemLineItemStatusName = "Cancelled";
        touch(p, "Cancelled");
      }
    },
    returnPackage: (id) => {
      const p = packages.find((x) => String(x.id) === id);
      if (p) {
        p.isReturned = true;
        touch(p, "Delivered");
      }
    },
    startOrderGenerator: (intervalMs, perTick = 1) => server.every(intervalMs, () => generateOrders(perTick)),
  };
}
