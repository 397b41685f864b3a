/**
 * A JetStok panel as far as files go (no API exists to emulate): a seeded catalogue and customers who
 * order; it exports its orders as Excel in the layout of `JETSTOK_ORDER_COLUMNS` and imports a stock and
 * price file, refusing one whose sheet or headers are not `JETSTOK_STOCK_COLUMNS` (the judge of our
 * file). The layout is inferred (VERIFIED.md): this panel holds us to the layout we documented, not to
 * JetStok's own, which no public source shows.
 */

import Fastify, { type FastifyInstance } from "fastify";
import { generateCatalog, generateCustomers } from "../../testing/catalog";
import { Prng } from "../../testing/prng";
import { loadExcel } from "../files";
import {
  headerKey,
  JETSTOK_DEFAULT_VAT,
  JETSTOK_ORDER_COLUMNS,
  JETSTOK_STOCK_COLUMNS,
  JETSTOK_STOCK_SHEET,
  numberOf,
} from "../layout";

export type JetStokPanelOptions = {
  seed: number;
  productCount: number;
  orderCount: number;
  /** Served by a host (the server's `/sandbox/jetstok/{tenant}`): no port of its own. */
  listen?: false;
  baseUrl?: string;
  now?: () => number;
};

export type PanelOrderLine = { sku: string; name: string; qty: number; unitPrice: number; vatRate: number };
export type PanelOrder = {
  orderNo: string;
  orderedAt: number;
  channel: string;
  customer: ReturnType<typeof generateCustomers>[number];
  lines: PanelOrderLine[];
  shippingCost: number;
};

/** What an import of a stock and price file did. */
export type PanelImport = { applied: number; unknown: string[] };

const CHANNELS = ["Trendyol", "Hepsiburada", "N11", "Web Sitesi"];

export type JetStokPanel = {
  app: FastifyInstance;
  url: string | undefined;
  stock: Map<string, { qty: number; price: number }>;
  orders: PanelOrder[];
  imports: PanelImport[];
  generateOrders(n: number, orderedAt?: readonly number[]): PanelOrder[];
  startOrderGenerator(everyMs: number, perTick: number): () => void;
  close(): Promise<void>;
};

export async function startJetStokPanel(options: JetStokPanelOptions): Promise<JetStokPanel> {
  const now = options.now ?? Date.now;
  const catalog = generateCatalog({ seed: options.seed, count: options.productCount });
  const customers = generateCustomers(options.seed, 50);
  const rng = new Prng(`${options.seed}:jetstok-orders`);
  const stock = new Map(catalog.map((c) => [c.sku, { qty: c.stock1, price: c.retailPrice }]));
  const orders: PanelOrder[] = [];
  const imports: PanelImport[] = [];

  const generateOrders = (n: number, at: readonly number[] = []): PanelOrder[] => {
    const made: PanelOrder[] = [];
    for (let i = 0; i < n; i++) {
      const lines = Array.from({ length: rng.int(1, 3) }, () => {
        const item = rng.pick(catalog);
        return {
          sku: item.sku,
          name: item.name,
          qty: rng.int(1, 3),
          unitPrice: stock.get(item.sku)?.price ?? item.retailPrice,
          vatRate: item.vatRate,
        };
      });
      const order: PanelOrder = {
        orderNo: `JS-${100_001 + orders.length}`,
        // A panel's export shows whole seconds at most.
        orderedAt: Math.floor((at[i] ?? now()) / 1000) * 1000,
        channel: rng.pick(CHANNELS),
        customer: rng.pick(customers),
        lines,
        shippingCost: rng.chance(0.5) ? 0 : 49.9,
      };
      orders.push(order);
      made.push(order);
    }
    return made;
  };
  generateOrders(options.orderCount);

  const app = Fastify({ logger: false });
  app.addContentTypeParser("*", { parseAs: "buffer" }, (_req, body, done) => done(null, body));

  app.get("/", async (_req, reply) =>
    reply
      .type("text/html; charset=utf-8")
      .send(
        `<!doctype html><html lang="tr"><meta charset="utf-8"><title>Deneme JetStok</title><h1>Deneme JetStok paneli</h1><p>${orders.length} sipariş, ${stock.size} ürün.</p><p><a href="siparisler/disa-aktar">Siparişleri Excel olarak dışa aktar</a></p><p>Stok ve fiyat dosyası: <code>POST urunler/ice-aktar</code> (Excel).</p></html>`,
      ),
  );

  app.get("/siparisler/disa-aktar", async (_req, reply) => {
    const { Workbook } = await loadExcel();
    const book = new Workbook();
    const sheet = book.addWorksheet("Siparişler");
    const c = JETSTOK_ORDER_COLUMNS;
    sheet.columns = Object.entries(c).map(([key, header]) => ({ key, header }));
    for (const o of orders) {
      const a = o.customer.address;
      for (const l of o.lines) {
        sheet.addRow({
          orderNo: o.orderNo,
          orderDate: new Date(o.orderedAt),
          channel: o.channel,
          status: "Onaylandı",
          customerName: `${o.customer.firstName} ${o.customer.lastName}`,
          email: o.customer.email,
          phone: o.customer.phone,
          taxNumber: o.customer.taxNumber ?? o.customer.tckn,
          taxOffice: o.customer.taxOffice ?? "",
          companyName: o.customer.companyName ?? "",
          address: a.line1,
          district: a.district,
          city: a.city,
          sku: l.sku,
          productName: l.name,
          qty: l.qty,
          unitPrice: l.unitPrice,
          vatRate: l.vatRate ?? JETSTOK_DEFAULT_VAT,
          discount: 0,
          shippingCost: o.shippingCost,
          currency: "TRY",
          paymentType: "Kredi Kartı",
        });
      }
    }
    const body = Buffer.from(await book.xlsx.writeBuffer());
    return reply
      .type("application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
      .header("content-disposition", 'attachment; filename="jetstok-siparisler.xlsx"')
      .send(body);
  });

  app.post("/urunler/ice-aktar", async (req, reply) => {
    const { Workbook } = await loadExcel();
    const book = new Workbook();
    try {
      await book.xlsx.load(req.body as Buffer as unknown as ArrayBuffer);
    } catch {
      return reply.code(400).send({ error: "Dosya okunamadı: Excel (.xlsx) olmalı." });
    }
    const sheet = book.getWorksheet(JETSTOK_STOCK_SHEET);
    if (!sheet) return reply.code(400).send({ error: `"${JETSTOK_STOCK_SHEET}" sayfası yok.` });
    const headers = (sheet.getRow(1).values as unknown[]).slice(1).map((v) => headerKey(String(v ?? "")));
    const expected = Object.values(JETSTOK_STOCK_COLUMNS).map(headerKey);
    if (headers.join("|") !== expected.join("|"))
      return reply.code(400).send({ error: `Sütunlar: ${Object.values(JETSTOK_STOCK_COLUMNS).join(", ")}.` });
    const result: PanelImport = { applied: 0, unknown: [] };
    sheet.eachRow((row, n) => {
      if (n === 1) return;
      const v = row.values as unknown[];
      const sku = String(v[1] ?? "").trim();
      const held = stock.get(sku);
      if (!held) {
        result.unknown.push(sku);
        return;
      }
      const qty = numberOf(v[2]);
      const price = numberOf(v[3]);
      if (!Number.isNaN(qty)) held.qty = qty;
      if (!Number.isNaN(price)) held.price = price;
      result.applied++;
    });
    imports.push(result);
    return result;
  });

  let url: string | undefined;
  if (options.listen !== false) url = await app.listen({ port: 0, host: "127.0.0.1" });
  else await app.ready();
  const timers = new Set<NodeJS.Timeout>();
  return {
    app,
    url: url ?? options.baseUrl,
    stock,
    orders,
    imports,
    generateOrders,
    startOrderGenerator(everyMs, perTick) {
      const timer = setInterval(() => generateOrders(perTick), everyMs);
      timer.unref();
      timers.add(timer);
      return () => {
        clearInterval(timer);
        timers.delete(timer);
      };
    },
    async close() {
      for (const t of timers) clearInterval(t);
      await app.close();
    },
  };
}
