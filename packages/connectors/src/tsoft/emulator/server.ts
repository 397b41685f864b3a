/**
 * T-Soft REST1 emulator on the emulator kit. Every request first passes the judge (../judge/requests.ts):
 * one it rejects is answered `success: false` with the judge's words and changes nothing, so the emulator
 * accepts exactly what the sources show. Login tokens live one hour; a stale token is answered inside
 * HTTP 200 with a message naming the token (as the public client expects). Faults come from the kit
 * (5xx, 429 with Retry-After, timeouts, dropped writes, token refusals).
 */

import type { FastifyRequest } from "fastify";
import { TokenStore } from "../../testing/auth";
import type { EmulatorCounters } from "../../testing/faults";
import type { RecordedRequest } from "../../testing/recorder";
import { createEmulatorServer, type Emulator, type EmulatorOptions } from "../../testing/server";
import { judgeTsoftRequest } from "../judge/requests";
import { type Row, type TsoftMain, TsoftState } from "./state";

export interface TsoftEmulatorOptions extends EmulatorOptions {
  productCount?: number;
  orderCount?: number;
  apiUser?: string;
  apiPass?: string;
  /** No limit is published; off unless a test sets one. */
  rateLimit?: { requests: number; windowMs: number } | false;
  tokenTtlMs?: number;
}

export interface TsoftEmulator extends Emulator<EmulatorCounters & { logins: number; rejected: number }> {
  credentials: { storeUrl: string; apiUser: string; apiPass: string };
  state: TsoftState;
  expireTokens(): void;
  issuedTokens(): string[];
  startOrderGenerator(intervalMs: number, perTick?: number): () => void;
}

const fail = (text: string) => ({ success: false, message: [{ text: [text] }] });
const done = (text: string, data?: unknown[]) => ({
  success: true,
  message: [{ text: [text] }],
  ...(data ? { data } : {}),
});

const WRITE_OPS = new Set([
  "product/setproducts",
  "product/updateproducts",
  "subproduct/addsubproducts",
  "subproduct/setsubproducts",
]);

function asRecorded(req: FastifyRequest): RecordedRequest {
  return {
    at: 0,
    method: req.method,
    path: req.url.split("?")[0] ?? req.url,
    query: req.query as Record<string, unknown>,
    headers: req.headers as Record<string, string | undefined>,
    body: req.body,
  };
}

export async function startTsoftEmulator(opts: TsoftEmulatorOptions = {}): Promise<TsoftEmulator> {
  const apiUser = opts.apiUser ?? "entegrasyon";
  const apiPass = opts.apiPass ?? "tsoft-emulator-pass-0123";
  const server = createEmulatorServer<EmulatorCounters & { logins: number; rejected: number }>(
    {
      ...opts,
      formBodies: true,
      answers: {
        // Inferred: the sources show no 5xx or 429 bodies; a web server's page and the envelope.
        serverError: {
          status: 500,
          contentType: "text/html",
          body: "<html><body>500 Internal Server Error</body></html>",
        },
        tooManyRequests: () => fail("Çok fazla istek gönderildi, lütfen bekleyiniz"),
        lock: { status: 200, body: fail("Kayıt başka bir işlem tarafından kilitli") },
        unauthorized: { status: 200, body: fail("Token geçersiz veya süresi dolmuş") },
      },
    },
    { logins: 0, rejected: 0 },
  );
  const { counters, now } = server;
  const state = new TsoftState({
    seed: opts.seed ?? 1,
    productCount: opts.productCount ?? 0,
    orderCount: opts.orderCount,
    now,
  });
  const tokens = new TokenStore(opts.tokenTtlMs ?? 3600_000, now);

  server.app.post("/rest1/auth/login/:user", async (req, reply) => {
    const gate = await server.gate(req, reply, { kind: "read", operation: "auth/login" });
    if (gate === "handled") return reply;
    const verdict = judgeTsoftRequest(asRecorded(req));
    if (verdict && verdict.problems.length > 0) {
      counters.rejected++;
      return fail(verdict.problems.join("; "));
    }
    const form = (req.body ?? {}) as Record<string, string>;
    const q = req.query as Record<string, string>;
    const user = decodeURIComponent((req.params as { user: string }).user);
    if (user !== apiUser || (form.pass ?? q.pass) !== apiPass) {
      counters.authFailures++;
      return fail("Kullanıcı adı veya şifre hatalı");
    }
    counters.logins++;
    const t = tokens.issue();
    return done("Giriş başarılı", [{ token: t.token, expirationTime: new Date(t.expiresAt).toISOString() }]);
  });

  server.app.post("/rest1/*", async (req, reply) => {
    const path = (req.params as { "*": string })["*"].replace(/\/+$/, "");
    const op = path.toLowerCase();
    const kind = WRITE_OPS.has(op) ? "write" : "read";
    const gate = await server.gate(req, reply, { kind, operation: path });
    if (gate === "handled") return reply;
    const form = (req.body ?? {}) as Record<string, string>;
    const check = tokens.check(form.token);
    if (check !== "ok") {
      counters.authFailures++;
      return fail(check === "expired" ? "Token süresi dolmuş" : "Token geçersiz");
    }
    const verdict = judgeTsoftRequest(asRecorded(req));
    if (!verdict) return reply.code(404).send(fail("Controller is not allowed!"));
    if (verdict.problems.length > 0) {
      counters.rejected++;
      return fail(verdict.problems.join("; "));
    }
    const answer = handle(op, form);
    if (gate === "drop") return server.drop(req, reply);
    return answer;
  });

  function handle(op: string, form: Record<string, string>): unknown {
    const rows = form.data ? (JSON.parse(form.data) as Row[]) : [];
    const start = Number(form.start ?? 0);
    const limit = Number(form.limit ?? 50);
    switch (op) {
      case "category/getcategories":
        return done("", state.categories.slice(start, start + limit));
      case "product/get": {
        let list = [...state.products.values()];
        if (form.ProductCode) {
          const codes = new Set(form.ProductCode.split("|"));
          list = list.filter((p) => codes.has(p.ProductCode));
        }
        if (form.CategoryIds) {
          const ids = new Set(form.CategoryIds.split("|"));
          list = list.filter((p) => ids.has(p.DefaultCategoryId));
        }
        const withSubs = form.FetchSubProducts === "true";
        return done(
          "",
          list.slice(start, start + limit).map((p) => {
            const { SubProducts, ...main } = p;
            return withSubs && SubProducts.length > 0 ? { ...main, SubProducts } : main;
          }),
        );
      }
      case "order/get": {
        const from = form.OrderDateTimeStart ?? "";
        const to = form.OrderDateTimeEnd ?? "";
        const list = state.orders.filter((o) => String(o.OrderDate) >= from && String(o.OrderDate) <= to);
        const withLines = form.FetchProductData === "true";
        return done(
          "",
          list.slice(start, start + limit).map((o) => (withLines ? o : { ...o, OrderDetails: undefined })),
        );
      }
      case "product/setproducts": {
        for (const r of rows) {
          const code = String(r.ProductCode);
          if (state.products.has(code)) return fail(`${code} kodlu ürün zaten var`);
        }
        for (const r of rows) {
          const code = String(r.ProductCode);
          const cat = state.categories.find((c) => c.CategoryCode === r.DefaultCategoryCode);
          const p: TsoftMain = {
            ProductId: state.nextId(),
            ProductCode: code,
            ProductName: String(r.ProductName),
            Barcode: String(r.Barcode ?? ""),
            Stock: String(r.Stock ?? "0"),
            SellingPrice: String(r.SellingPrice ?? "0"),
            ListPrice: "0",
            Vat: String(r.Vat ?? "20"),
            Currency: String(r.Currency ?? "TL"),
            Brand: String(r.Brand ?? ""),
            StockUnit: String(r.StockUnit ?? "Adet"),
            IsActive: String(r.IsActive ?? "1"),
            DefaultCategoryId: cat?.CategoryId ?? "",
            DefaultCategoryPath: cat?.CategoryName ?? "",
            CreateDate: new Date(now()).toISOString().replace("T", " ").slice(0, 19),
            ImageUrl: String(r.ImageUrl ?? ""),
            Details: String(r.Details ?? ""),
            HasSubProducts: r.HasSubProducts === true,
            SubProducts: [],
          };
          state.products.set(code, p);
        }
        return done(`${rows.length} ürün eklendi`);
      }
      case "product/updateproducts": {
        const missing = rows.map((r) => String(r.ProductCode)).filter((c) => !state.products.has(c));
        if (missing.length > 0) return fail(`${missing.join(", ")} ürün bulunamadı`);
        for (const r of rows) {
          const p = state.products.get(String(r.ProductCode)) as TsoftMain;
          for (const [k, v] of Object.entries(r)) {
            if (k === "DefaultCategoryCode") {
              const cat = state.categories.find((c) => c.CategoryCode === v);
              if (cat) p.DefaultCategoryId = cat.CategoryId;
            } else if (k in p && k !== "SubProducts") (p as unknown as Row)[k] = v;
          }
        }
        return done(`${rows.length} kayıt güncellendi`);
      }
      case "subproduct/addsubproducts": {
        for (const r of rows) {
          if (!state.products.has(String(r.MainProductCode)))
            return fail(`${String(r.MainProductCode)} ana ürün bulunamadı`);
          if (state.findSub(String(r.MainProductCode), String(r.SubProductCode)))
            return fail(`${String(r.SubProductCode)} alt ürün zaten var`);
        }
        for (const r of rows) {
          const main = state.products.get(String(r.MainProductCode)) as TsoftMain;
          main.HasSubProducts = true;
          main.SubProducts.push({
            SubProductId: state.nextId(),
            MainProductCode: main.ProductCode,
            SubProductCode: String(r.SubProductCode),
            Barcode: String(r.Barcode ?? ""),
            Property1: String(r.Property1 ?? ""),
            Property2: String(r.Property2 ?? ""),
            Stock: String(r.Stock ?? "0"),
            SellingPrice: String(r.SellingPrice ?? main.SellingPrice),
            IsActive: String(r.IsActive ?? "1"),
          });
        }
        return done(`${rows.length} alt ürün eklendi`);
      }
      case "subproduct/setsubproducts": {
        const missing = rows
          .filter((r) => !state.findSub(String(r.MainProductCode), String(r.SubProductCode)))
          .map((r) => String(r.SubProductCode));
        if (missing.length > 0) return fail(`${missing.join(", ")} alt ürün bulunamadı`);
        for (const r of rows) {
          const s = state.findSub(String(r.MainProductCode), String(r.SubProductCode));
          if (s) for (const [k, v] of Object.entries(r)) if (k in s) (s as unknown as Row)[k] = v;
        }
        return done(`${rows.length} kayıt güncellendi`);
      }
      default:
        return fail("Controller is not allowed!");
    }
  }

  const started = await server.start(opts);
  const { url } = started;
  return {
    ...started,
    credentials: { storeUrl: url, apiUser, apiPass },
    state,
    expireTokens: () => tokens.expireAll(),
    issuedTokens: () => tokens.issued(),
    startOrderGenerator: (intervalMs, perTick = 1) =>
      server.every(intervalMs, () => state.generateOrders(perTick)),
  };
}
