/**
 * Logo İşbaşı emulator on the kit: `integrationLogin` (ApiKey header → day-long bearer token + tenant
 * id), the `{code, message, isError, data}` envelope, list bodies with paging (≤ 100), products with
 * modification dates for delta reads, firms, integration invoices, and the monthly quota (reads and
 * writes counted; over it, HTTP 429 — the shape of that refusal is inferred). Faults: the kit's.
 */

import { randomUUID } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import { bearerToken, TokenStore } from "../../testing/auth";
import { generateCatalog } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";

type Row = Record<string, unknown>;

export interface IsbasiEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  apiKey?: string;
  username?: string;
  password?: string;
  /** The account's tenant (firm) id; one emulator per tenant. */
  tenantId?: string;
  quota?: { read: number; write: number };
  tokenTtlMs?: number;
}

export type IsbasiEmulatorCredentials = {
  apiUrl: string;
  apiKey: string;
  username: string;
  password: string;
};

export interface IsbasiEmulator
  extends Emulator<EmulatorCounters & { quotaReads: number; quotaWrites: number; logins: number }> {
  credentials: IsbasiEmulatorCredentials;
  tenantId: string;
  products: Row[];
  firms: Row[];
  invoices: Row[];
  touchProduct(code: string, patch?: Row): void;
  expireTokens(): void;
}

const ok = (data: unknown) => ({ code: 200, message: "", isError: false, data });
const fail = (code: number, message: string) => ({ code, message, isError: true, data: null });

export async function startIsbasiEmulator(opts: IsbasiEmulatorOptions = {}): Promise<IsbasiEmulator> {
  const cred = {
    apiKey: opts.apiKey ?? "isbasi-emulator-api-key-0001",
    username: opts.username ?? "yonetici@ornek-magaza.com.tr",
    password: opts.password ?? "Isbasi-Emu-Parola1",
  };
  const quota = opts.quota ?? { read: 3000, write: 7000 };
  const tenantId = opts.tenantId ?? "4719c95b-216c-49eb-bf62-000000000001";
  const server = createEmulatorServer<
    EmulatorCounters & { quotaReads: number; quotaWrites: number; logins: number }
  >(
    {
      ...opts,
      answers: {
        serverError: { status: 500, body: fail(500, "Beklenmeyen bir hata oluştu.") },
        tooManyRequests: () => fail(429, "Too many requests"),
        lock: { status: 409, body: fail(409, "Kayıt başka bir işlem tarafından kullanılıyor.") },
        unauthorized: { status: 401, body: fail(401, "Unauthorized") },
      },
    },
    { quotaReads: 0, quotaWrites: 0, logins: 0 },
  );
  const now = server.now;
  const { counters } = server;
  const tokens = new TokenStore(opts.tokenTtlMs ?? 86_400_000, now);

  const items = generateCatalog({ seed: opts.seed ?? 1, count: opts.productCount ?? 0, now: now() });
  let nextId = 1;
  const products: Row[] = items.map((it) => ({
    id: nextId++,
    code: it.sku,
    name: it.name,
    isActive: true,
    type: 1,
    vatRate: it.vatRate,
    category: { id: 0, name: it.categoryChild, code: it.categoryChild.slice(0, 3).toUpperCase() },
    brand: { id: 0, name: it.brand },
    mainUnit: { name: it.unit, isMain: true, barcode: it.barcode },
    units: [{ name: it.unit, isMain: true, barcode: it.barcode }],
    prices: [
      { type: 1, price: it.retailPrice, priceTaxIncluded: it.retailPrice, vatIncluded: true, currency: "TL" },
      {
        type: 2,
        price: it.wholesalePrice,
        priceTaxExcluded: it.wholesalePrice,
        vatIncluded: false,
        currency: "TL",
      },
    ],
    modificationDate: new Date(it.updatedAt).toISOString().slice(0, 19),
  }));
  const firms: Row[] = [];
  const invoices: Row[] = [];
  let invoiceNo = 171;

  function auth(req: FastifyRequest): Row | undefined {
    if (String(req.headers.apikey ?? "") !== cred.apiKey) return fail(401, "API yetkilendirilmedi");
    if (tokens.check(bearerToken(req.headers.authorization)) !== "ok") return fail(401, "Unauthorized");
    if (String(req.headers.tenantid ?? "") !== tenantId) return fail(403, "Firma yetkisi yok");
    return undefined;
  }

  /** Gate, quota, auth; undefined when the handler may answer. */
  async function enter(req: FastifyRequest, reply: FastifyReply, kind: "read" | "write", operation: string) {
    const g = await server.gate(req, reply, { kind, operation });
    if (g === "handled") return "handled" as const;
    const a = auth(req);
    if (a) {
      counters.authFailures++;
      server.noteOutcome(true);
      await reply.code(Number(a.code)).send(a);
      return "handled" as const;
    }
    if (kind === "read" ? counters.quotaReads >= quota.read : counters.quotaWrites >= quota.write) {
      await reply.code(429).send(fail(429, "Aylık API kota sınırı aşıldı."));
      return "handled" as const;
    }
    if (kind === "read") counters.quotaReads++;
    else counters.quotaWrites++;
    return g;
  }

  function listOf(rows: Row[], body: Row): Row {
    let out = rows;
    for (const f of (body.filters ?? []) as Row[]) {
      const col = String(f.columnName);
      const v = String(f.value);
      if (f.operator === 5) out = out.filter((r) => String(r[col] ?? "") >= v);
      else if (f.operator === 2) out = out.filter((r) => String(r[col] ?? "") <= v);
      else if (f.operator === 17) out = out.filter((r) => v.split(",").includes(String(r[col])));
      else out = out.filter((r) => String(r[col] ?? "") === v);
    }
    const [col, dir] = Object.entries((body.sorting ?? { id: "Asc" }) as Row)[0] ?? ["id", "Asc"];
    out = [...out].sort((a, b) => {
      const x = a[col] as string | number;
      const y = b[col] as string | number;
      const c = x < y ? -1 : x > y ? 1 : Number(a.id) - Number(b.id);
      return dir === "Desc" ? -c : c;
    });
    const paging = (body.paging ?? {}) as Row;
    const size = Math.min(100, Math.max(1, Number(paging.pageSize ?? 100)));
    const page = Math.max(1, Number(paging.currentPage ?? 1));
    return { count: out.length, data: out.slice((page - 1) * size, page * size), extraData: null };
  }

  const app = server.app;
  app.post("/api/v1.0/user/integrationLogin", async (req, reply) => {
    const g = await server.gate(req, reply, { kind: "read", operation: "integrationLogin" });
    if (g === "handled") return reply;
    counters.logins++;
    const b = (req.body ?? {}) as Row;
    if (String(req.headers.apikey ?? "") !== cred.apiKey)
      return reply.code(403).send(fail(403, "API yetkilendirilmedi"));
    if (b.username !== cred.username || b.password !== cred.password)
      return reply.code(400).send(fail(400, "Kullanıcı adı veya şifre hatalı."));
    const t = tokens.issue();
    return reply.send(
      ok({ moduleToken: "", accessToken: t.token, tokenType: "Bearer", tenantId, userId: 42, licenses: [] }),
    );
  });

  app.post("/api/v1.0/products/products", async (req, reply) => {
    if ((await enter(req, reply, "read", "listProducts")) === "handled") return reply;
    return reply.send(ok(listOf(products, (req.body ?? {}) as Row)));
  });

  app.post("/api/v1.0/firms/firms", async (req, reply) => {
    if ((await enter(req, reply, "read", "listFirms")) === "handled") return reply;
    return reply.send(ok(listOf(firms, (req.body ?? {}) as Row)));
  });

  app.put("/api/v1.0/firms", async (req, reply) => {
    const g = await enter(req, reply, "write", "saveFirm");
    if (g === "handled") return reply;
    const b = (req.body ?? {}) as Row;
    const id = nextId++;
    firms.push({
      ...b,
      id,
      phone: (b.phoneNumbers as string[] | undefined)?.[0] ?? "",
      modificationDate: new Date(now()).toISOString().slice(0, 19),
    });
    if (g === "drop") return server.drop(req, reply);
    return reply.send(ok(id));
  });

  app.post("/api/v1.0/invoices/integrationInvoices", async (req, reply) => {
    const g = await enter(req, reply, "write", "integrationInvoices");
    if (g === "handled") return reply;
    const b = (req.body ?? {}) as Row;
    const c = (b.customer ?? {}) as Row;
    for (const k of ["address", "tcknVkn"])
      if (!c[k]) return reply.code(400).send(fail(400, `customer.${k} zorunludur`));
    if (!c.postalCode || !c.city || !c.district)
      return reply
        .code(400)
        .send(fail(400, "Firma tanımında adres, posta kodu, şehir ve ilçe alanları dolu olmalıdır"));
    const details = (b.salesInvoiceDetails ?? []) as Row[];
    for (const d of details) {
      const code = String((d.productDetail as Row | undefined)?.itemCode ?? "");
      if ((d.productDetail as Row | undefined)?.itemType === 1 && !products.some((p) => p.code === code))
        return reply.code(400).send(fail(400, `${code} kodlu ürün bulunamadı`));
    }
    const id = 1960 + invoices.length;
    invoiceNo++;
    const gross = details.reduce((a, d) => a + Number(d.price) * Number(d.quantity), 0);
    const net = details.reduce(
      (a, d) => a + (Number(d.price) * Number(d.quantity)) / (1 + Number(d.taxRate) / 100),
      0,
    );
    const inv = {
      id,
      invoiceNumber: `REE2026${String(invoiceNo).padStart(9, "0")}`,
      uuid: randomUUID().toUpperCase(),
      invoiceDate: b.invoiceDate,
      currency: b.currency,
      description: b.description,
      salesInvoiceDetails: details,
      total: Math.round(gross * 100) / 100,
      totalwotax: Math.round(net * 100) / 100,
      vatAmount: Math.round((gross - net) * 100) / 100,
      firm: { code: c.code, name: c.name },
      eGovernmentInvoice: { description: "GİB'E GÖNDERİLECEK", eStatus: 0 },
    };
    invoices.push(inv);
    if (g === "drop") return server.drop(req, reply);
    return reply.send(ok({ invoiceId: id, uuid: inv.uuid, no: inv.invoiceNumber }));
  });

  app.post("/api/v1.0/invoices/invoices", async (req, reply) => {
    if ((await enter(req, reply, "read", "listInvoices")) === "handled") return reply;
    const rows = invoices.map(({ salesInvoiceDetails: _d, ...head }) => head);
    return reply.send(ok(listOf(rows, (req.body ?? {}) as Row)));
  });

  app.get("/api/v1.0/invoices/:id", async (req, reply) => {
    if ((await enter(req, reply, "read", "getInvoice")) === "handled") return reply;
    const inv = invoices.find((i) => i.id === Number((req.params as Row).id));
    if (!inv) return reply.code(599).send(fail(599, "Kayıt Numarası Bulunamadı!"));
    return reply.send(ok(inv));
  });

  const started = await server.start(opts);
  const { url } = started;

  return {
    ...started,
    credentials: { apiUrl: url, ...cred },
    tenantId,
    products,
    firms,
    invoices,
    touchProduct(code, patch = {}) {
      const p = products.find((x) => x.code === code);
      if (p) Object.assign(p, patch, { modificationDate: new Date(now()).toISOString().slice(0, 19) });
    },
    expireTokens: () => tokens.expireAll(),
  };
}
