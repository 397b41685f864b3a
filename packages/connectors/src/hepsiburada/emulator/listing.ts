/**
 * The Hepsiburada emulator's catalogue import (issue 37), built from the judge's listing shapes: the
 * category attributes (base, ordinary, variant; enum values per attribute), the import file answered
 * with a `trackingId`, and the status read (`PROCESSING` until `uploadDelayMs`, then per product
 * `SUCCESS` or `FAILED` with `importMessages` / `validationResults`). A product is checked against the
 * category's own lists the way the catalogue checks it: a leaf category, every mandatory attribute, an
 * enum value from its list, a merchant SKU and a barcode not already the merchant's. A product taken
 * becomes a listing at once (the emulator's simplification: production opens it after catalogue review).
 */

import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { importFile } from "../judge/listing-requests";

type Row = Record<string, unknown>;

const attr = (id: string, name: string, mandatory: boolean, type = "string") => ({
  id,
  name,
  mandatory,
  type,
  multiValue: false,
});

/** What every category's attribute read answers (AttributeResponse). */
export const EMULATED_ATTRIBUTES = {
  baseAttributes: [
    attr("merchantSku", "Satıcı Stok Kodu", true),
    attr("VaryantGroupID", "Varyant Grup Id", true),
    attr("Barcode", "Barkod", true),
    attr("UrunAdi", "Ürün Adı", true),
    attr("UrunAciklamasi", "Ürün Açıklaması", true),
    attr("Marka", "Marka", true),
    attr("GarantiSuresi", "Garanti Süresi (Ay)", true, "integer"),
    attr("kg", "Desi", false),
    attr("tax_vat_rate", "KDV", true),
    attr("price", "Fiyat", true),
    attr("stock", "Stok", true),
    attr("Image1", "Görsel 1", false),
    attr("Image2", "Görsel 2", false),
  ],
  attributes: [attr("00000MU", "Materyal", false, "enum")],
  variantAttributes: [attr("renk_variant_property", "Renk", true, "enum")],
};

/** The enum attributes' values. */
export const EMULATED_VALUES: Record<string, string[]> = {
  "00000MU": ["Pamuk", "Polyester", "Keten"],
  renk_variant_property: ["Siyah", "Beyaz", "Lacivert"],
};

interface ListingDeps {
  app: FastifyInstance;
  handle(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: "read" | "write",
    answer: () => unknown,
  ): Promise<unknown>;
  merchantId: string;
  categories: Row[];
  listings: Row[];
  bySku: Map<string, Row>;
  now(): number;
  uploadDelayMs: number;
}

export function registerListingRoutes(d: ListingDeps): void {
  // The import is a multipart upload: its body is kept as text, judged and read as the judge reads it.
  d.app.addContentTypeParser("multipart/form-data", { parseAs: "string" }, (_req, body, done) =>
    done(null, body),
  );
  const leaves = new Set(d.categories.filter((c) => c.leaf === true).map((c) => Number(c.categoryId)));
  const imports = new Map<string, { readyAt: number; statuses: Row[] }>();
  const C = "/mpop/product/api";

  d.app.get(`${C}/categories/:id/attributes`, (req, reply) =>
    d.handle(req, reply, "read", () => ({ success: true, code: 0, version: 2, data: EMULATED_ATTRIBUTES })),
  );
  d.app.get(`${C}/categories/:id/attribute/:attributeId/values`, (req, reply) =>
    d.handle(req, reply, "read", () => {
      const values = EMULATED_VALUES[(req.params as Row).attributeId as string] ?? [];
      const q = req.query as Record<string, string>;
      const size = Number(q.size ?? 1000);
      const page = Number(q.page ?? 0);
      const data = values.slice(page * size, (page + 1) * size).map((value) => ({ value }));
      const totalPages = Math.ceil(values.length / size);
      return { success: true, code: 0, data, totalPages, number: page, last: page + 1 >= totalPages };
    }),
  );

  const all = [
    ...EMULATED_ATTRIBUTES.baseAttributes,
    ...EMULATED_ATTRIBUTES.attributes,
    ...EMULATED_ATTRIBUTES.variantAttributes,
  ];
  const inProcess = new Set<string>();
  const barcodes = new Map<string, string>();
  const check = (it: Row): { messages: string[]; validation: Row[] } => {
    const a = (it.attributes ?? {}) as Row;
    const messages: string[] = [];
    const validation: Row[] = [];
    const sku = String(a.merchantSku);
    if (!leaves.has(Number(it.categoryId)))
      messages.push(`Kategori ürün açmaya uygun değil: ${String(it.categoryId)}`);
    if (d.bySku.has(sku) || inProcess.has(sku))
      messages.push(`Bu satıcı stok kodu ile ürün zaten var: ${sku}`);
    const owner = barcodes.get(String(a.Barcode));
    if (owner !== undefined && owner !== sku)
      messages.push(`Bu barkod başka bir ürününüzde kullanılıyor: ${String(a.Barcode)}`);
    for (const x of all) {
      const v = a[x.id];
      if (v === undefined || String(v).trim() === "") {
        if (x.mandatory) validation.push({ attributeName: x.name, message: "Zorunlu alan boş bırakılamaz" });
        continue;
      }
      if (x.type === "enum" && !(EMULATED_VALUES[x.id] ?? []).includes(String(v)))
        validation.push({ attributeName: x.name, message: `Geçersiz değer: ${String(v)}` });
    }
    return { messages, validation };
  };

  d.app.post(`${C}/products/import`, (req, reply) =>
    d.handle(req, reply, "write", () => {
      const f = importFile(req.body);
      const items = ("items" in f ? f.items : []) as Row[];
      const trackingId = randomUUID();
      const statuses = items.map((it) => {
        const a = (it.attributes ?? {}) as Row;
        const sku = String(a.merchantSku);
        const { messages, validation } = check(it);
        const ok = messages.length === 0 && validation.length === 0;
        if (ok) {
          inProcess.add(sku);
          barcodes.set(String(a.Barcode), sku);
          const listing: Row = {
            listingId: randomUUID(),
            hepsiburadaSku: `HBV${String(d.listings.length + 1).padStart(10, "0")}`,
            merchantSku: sku,
            price: Number(String(a.price).replace(",", ".")),
            availableStock: Number(a.stock),
            dispatchTime: 2,
            isSalable: false,
            productName: a.UrunAdi,
            vatRate: Number(a.tax_vat_rate),
          };
          d.listings.push(listing);
          d.bySku.set(sku, listing);
        }
        return {
          itemOrderID: 0,
          merchant: d.merchantId,
          merchantSku: sku,
          barcode: a.Barcode,
          productName: a.UrunAdi,
          variantGroupId: a.VaryantGroupID,
          categoryId: it.categoryId,
          importStatus: ok ? "SUCCESS" : "FAILED",
          productStatus: ok ? "WAITING" : null,
          importMessages: messages.map((message) => ({ severity: "ERROR", message })),
          validationResults: validation,
          rejectReasonsMessages: [],
        };
      });
      imports.set(trackingId, { readyAt: d.now() + d.uploadDelayMs, statuses });
      return { success: true, code: 0, version: 1, message: null, data: { trackingId } };
    }),
  );

  d.app.get(`${C}/products/status/:trackingId`, (req, reply) =>
    d.handle(req, reply, "read", () => {
      const u = imports.get((req.params as Row).trackingId as string);
      if (!u) return { failStatus: 404, text: "Not Found" };
      const q = req.query as Record<string, string>;
      const size = Number(q.size ?? 1000);
      const page = Number(q.page ?? 0);
      const done = d.now() >= u.readyAt;
      const list = u.statuses.map((s) =>
        done
          ? s
          : {
              ...s,
              importStatus: "PROCESSING",
              productStatus: null,
              importMessages: [],
              validationResults: [],
            },
      );
      const data = list.slice(page * size, (page + 1) * size);
      const totalPages = Math.ceil(list.length / size);
      return {
        success: true,
        code: 0,
        version: 1,
        message: null,
        totalElements: list.length,
        totalPages,
        number: page,
        numberOfElements: data.length,
        first: page === 0,
        last: page + 1 >= totalPages,
        data,
      };
    }),
  );
}
