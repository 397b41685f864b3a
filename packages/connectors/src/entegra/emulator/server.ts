/**
 * Entegra emulator on the emulator kit, answering the requests of its judge (../judge/requests.ts) in the
 * shapes the public Singer tap parses: `POST /api/user/token/obtain/` → `{access, refresh}`;
 * `GET /product/page=N/` → `{totalProduct, productList}` (every value a string, variations in `variatios`);
 * `GET /category/page=1/` → a plain array; `GET /price/getPrices` → `{prices}`; `GET /store/getStores` →
 * `{stores}`. A missing or stale `Authorization: JWT …` gets 401. Data: the shared Turkish catalogue.
 */

import type { FastifyReply, FastifyRequest } from "fastify";
import { TokenStore } from "../../testing/auth";
import { type CatalogItem, generateCatalog } from "../../testing/catalog";
import type { EmulatorCounters } from "../../testing/faults";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";

export interface EntegraEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  email?: string;
  password?: string;
  /** Products per page the server sends (the API takes no page size). */
  pageSize?: number;
}

export interface EntegraEmulator extends Emulator<EmulatorCounters & { tokensIssued: number }> {
  credentials: { email: string; password: string; apiUrl: string };
  /** Products as the API lists them. */
  products: Array<Record<string, unknown>>;
  categories: Array<Record<string, string>>;
  expireTokens(): void;
  issuedTokens(): string[];
}

const s = (v: number | string) => String(v);
const round2 = (n: number) => Math.round(n * 100) / 100;

function buildProducts(items: CatalogItem[], categoryId: Map<string, string>) {
  const byModel = new Map<string, CatalogItem[]>();
  for (const i of items) byModel.set(i.modelCode, [...(byModel.get(i.modelCode) ?? []), i]);
  let id = 1000;
  return [...byModel.entries()].map(([model, rows]) => {
    const first = rows[0] as CatalogItem;
    const withVariants = first.optionValue !== undefined;
    const net = round2(first.retailPrice / (1 + first.vatRate / 100));
    return {
      id: s(++id),
      productCode: withVariants ? model : first.sku,
      name: withVariants ? first.modelName : first.name,
      status: "1",
      description: `${first.modelName} — ${first.categoryChild}`,
      barcode: withVariants ? "" : first.barcode,
      brand: first.brand,
      group: categoryId.get(first.categoryChild) ?? "0",
      quantity: s(rows.reduce((n, r) => n + r.stock1, 0)),
      quantity2: s(rows.reduce((n, r) => n + r.stock2, 0)),
      quantity2_enable: "1",
      currencyType: "TRL",
      kdv_id: s(first.vatRate),
      price1: net.toFixed(2),
      price2: first.wholesalePrice.toFixed(2),
      date_change: new Date(first.updatedAt).toISOString().slice(0, 19).replace("T", " "),
      variatios: withVariants
        ? rows.map((r) => ({
            id: s(++id),
            productCode: r.sku,
            barcode: r.barcode,
            quantity: s(r.stock1),
            quantity2: s(r.stock2),
            price: "0.00",
            price1: round2(r.retailPrice / (1 + r.vatRate / 100)).toFixed(2),
            variationSpec: [{ name: r.optionName ?? "Beden", value: r.optionValue ?? "" }],
          }))
        : [],
      pictures: [{ picture: `https://cdn.example.com.tr/urun/${model}.jpg` }],
    };
  });
}

export async function startEntegraEmulator(opts: EntegraEmulatorOptions = {}): Promise<EntegraEmulator> {
  const seed = opts.seed ?? 1;
  const email = opts.email ?? "api@deneme-magaza.com.tr";
  const password = opts.password ?? "entegra-emulator-sifre";
  const pageSize = opts.pageSize ?? 100;
  const server = createEmulatorServer<EmulatorCounters & { tokensIssued: number }>(
    {
      ...opts,
      answers: {
        serverError: {
          status: 502,
          contentType: "text/html",
          body: "<html><body><h1>502 Bad Gateway</h1></body></html>",
        },
        tooManyRequests: () => ({ detail: "Request was throttled." }),
        lock: { status: 500, body: { detail: "Database is locked" } },
        unauthorized: {
          status: 401,
          body: { detail: "Given token not valid for any token type", code: "token_not_valid" },
        },
      },
    },
    { tokensIssued: 0 },
  );
  const { counters, now } = server;
  const tokens = new TokenStore(7 * 86_400_000, now);
  const items = generateCatalog({ seed, count: opts.productCount ?? 0, now: now() });
  const categories: Array<Record<string, string>> = [];
  const categoryId = new Map<string, string>();
  for (const i of items) {
    for (const [name, parent] of [
      [i.categoryRoot, "0"],
      [i.categoryChild, i.categoryRoot],
    ] as const) {
      if (categoryId.has(name)) continue;
      const id = s(categories.length + 1);
      categoryId.set(name, id);
      categories.push({
        id,
        name,
        parent_id: parent === "0" ? "0" : (categoryId.get(parent) ?? "0"),
        status: "1",
        sort_order: "0",
      });
    }
  }
  const products = buildProducts(items, categoryId);

  server.app.post("/api/user/token/obtain/", async (req, reply) => {
    const gate = await server.gate(req, reply, { kind: "read", operation: "token/obtain" });
    if (gate === "handled") return reply;
    const b = (req.body ?? {}) as Record<string, unknown>;
    if (b.email !== email || b.password !== password) {
      counters.errors++;
      counters.authFailures++;
      return reply.code(401).send({ detail: "No active account found with the given credentials" });
    }
    counters.tokensIssued++;
    const access = tokens.issue().token;
    return reply.send({ access, refresh: tokens.issue().token });
  });

  async function authorised(req: FastifyRequest, reply: FastifyReply, operation: string): Promise<boolean> {
    const h = req.headers.authorization ?? "";
    const m = /^JWT (\S+)$/.exec(h);
    if (m && tokens.check(m[1]) === "ok") {
      const gate = await server.gate(req, reply, { kind: "read", operation });
      return gate !== "handled";
    }
    if (await server.rateLimit(reply)) return false;
    counters.requests++;
    counters.errors++;
    counters.authFailures++;
    await reply
      .code(401)
      .send({ detail: "Given token not valid for any token type", code: "token_not_valid" });
    return false;
  }

  server.app.get("/product/:seg/", async (req, reply) => {
    const page = /^page=([1-9]\d*)$/.exec((req.params as { seg: string }).seg)?.[1];
    if (!page) return reply.code(404).send({ detail: "Not found." });
    if (!(await authorised(req, reply, "products"))) return reply;
    const start = (Number(page) - 1) * pageSize;
    return reply.send({
      totalProduct: products.length,
      productList: products.slice(start, start + pageSize),
    });
  });

  server.app.get("/category/:seg/", async (req, reply) => {
    if ((req.params as { seg: string }).seg !== "page=1") return reply.send([]);
    if (!(await authorised(req, reply, "categories"))) return reply;
    return reply.send(categories);
  });

  server.app.get("/price/getPrices", async (req, reply) => {
    if (!(await authorised(req, reply, "prices"))) return reply;
    return reply.send({
      prices: [
        {
          id: "1",
          name: "Perakende Fiyatı",
          code: "P1",
          currencyType: "TRL",
          visibility: "1",
          sort_order: "1",
        },
        { id: "2", name: "Bayi Fiyatı", code: "P2", currencyType: "TRL", visibility: "1", sort_order: "2" },
      ],
    });
  });

  server.app.get("/store/getStores", async (req, reply) => {
    if (!(await authorised(req, reply, "stores"))) return reply;
    return reply.send({
      stores: [
        { id: "1", name: "Trendyol", status: "1" },
        { id: "2", name: "Hepsiburada", status: "1" },
      ],
    });
  });

  const started = await server.start(opts);
  const { url } = started;
  return {
    ...started,
    credentials: { email, password, apiUrl: url },
    products,
    categories,
    expireTokens: () => tokens.expireAll(),
    issuedTokens: () => tokens.issued(),
  };
}
