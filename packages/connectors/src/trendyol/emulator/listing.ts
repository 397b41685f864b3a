/**
 * The Trendyol emulator's listing side (issue 37): the brand list and product create V2 with its
 * asynchronous batch result. Every category offers the same three attributes the attribute list serves
 * (Renk required and closed, Beden closed, Materyal free text), so a create is checked against the
 * marketplace's own lists the way Trendyol checks it: a leaf category, a listed brand, every required
 * attribute with a listed value, a barcode not taken. Refusals come back per item as FAILED with reasons.
 * Variants: no attribute takes more than one value (none of these allows multiple values), and two
 * products of one productMainId must differ in their variant attributes (slicer or varianter), else the
 * second is the first again and is refused.
 */

import { randomUUID } from "node:crypto";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { BRANDS, CATEGORY_TREE } from "../../testing/turkish-data";

type Row = Record<string, unknown>;

/** The attribute list every category serves (emulator/server.ts answers it for getCategoryAttributes). */
export const EMULATED_CATEGORY_ATTRIBUTES = [
  {
    allowCustom: false,
    attribute: { id: 47, name: "Renk" },
    attributeValues: ["Siyah", "Beyaz", "Lacivert"].map((v, i) => ({ id: 100 + i, name: v })),
    required: true,
    varianter: false,
    slicer: true,
  },
  {
    allowCustom: false,
    attribute: { id: 338, name: "Beden" },
    attributeValues: ["S", "M", "L", "XL"].map((v, i) => ({ id: 200 + i, name: v })),
    required: false,
    varianter: true,
    slicer: false,
  },
  {
    allowCustom: true,
    attribute: { id: 14, name: "Materyal" },
    attributeValues: [] as Array<{ id: number; name: string }>,
    required: false,
    varianter: false,
    slicer: false,
  },
];

export const EMULATED_BRANDS = BRANDS.map((name, i) => ({ id: 1000 + i, name }));

interface ListingDeps {
  app: FastifyInstance;
  prefix: string;
  handle(
    req: FastifyRequest,
    reply: FastifyReply,
    kind: "read" | "write",
    answer: () => unknown,
  ): Promise<unknown>;
  categoryOf(root: string, child: string): number;
  tree: Array<{ id: number; subCategories?: unknown }>;
  products: Row[];
  byBarcode: Map<string, Row>;
  batches: Map<string, { readyAt: number; items: Row[]; create?: boolean }>;
  now(): number;
  batchDelayMs: number;
}

export function registerListingRoutes(d: ListingDeps): void {
  // The whole category list, after the catalogue's own (so existing ids stay as they were).
  for (const seed of CATEGORY_TREE) for (const c of seed.children) d.categoryOf(seed.root, c.name);
  const leaves = new Set<number>();
  for (const root of d.tree)
    for (const c of (root.subCategories as Array<{ id: number }> | null) ?? []) leaves.add(c.id);
  const brandIds = new Set(EMULATED_BRANDS.map((b) => b.id));

  d.app.get(`${d.prefix}/product/brands`, (req, reply) =>
    d.handle(req, reply, "read", () => {
      const q = req.query as Record<string, string>;
      const size = Number(q.size ?? 1000);
      const page = Number(q.page ?? 0);
      return { brands: EMULATED_BRANDS.slice(page * size, (page + 1) * size) };
    }),
  );
  d.app.get(`${d.prefix}/product/brands/by-name`, (req, reply) =>
    d.handle(req, reply, "read", () => {
      const name = String((req.query as Row).name ?? "");
      return EMULATED_BRANDS.filter((b) => b.name === name);
    }),
  );

  const variantIds = EMULATED_CATEGORY_ATTRIBUTES.filter((a) => a.varianter || a.slicer).map(
    (a) => a.attribute.id,
  );
  /** A product's variant attribute values (ids or text), the same for two products that are one variant. */
  const variantKey = (attributes: Row[]): string =>
    JSON.stringify(
      variantIds.map((id) => {
        const a = attributes.find((x) => Number(x.attributeId) === id);
        return a ? (a.attributeValueIds ?? a.attributeValue ?? null) : null;
      }),
    );
  /** Variant keys per productMainId of the products opened through product create (their attributes known). */
  const variantsOf = new Map<string, Set<string>>();
  for (const p of d.products)
    if (Array.isArray(p.attributes)) {
      const set = variantsOf.get(String(p.productMainId)) ?? new Set<string>();
      set.add(variantKey(p.attributes as Row[]));
      variantsOf.set(String(p.productMainId), set);
    }

  const refusals = (it: Row): string[] => {
    const reasons: string[] = [];
    if (!leaves.has(Number(it.categoryId))) reasons.push(`Kategori bulunamadı: ${it.categoryId}`);
    if (!brandIds.has(Number(it.brandId))) reasons.push(`Marka bulunamadı: ${it.brandId}`);
    if (d.byBarcode.has(String(it.barcode))) reasons.push(`Bu barkod ile ürün zaten var: ${it.barcode}`);
    const given = new Map(((it.attributes as Row[]) ?? []).map((a) => [Number(a.attributeId), a]));
    for (const a of EMULATED_CATEGORY_ATTRIBUTES) {
      const v = given.get(a.attribute.id);
      given.delete(a.attribute.id);
      if (!v) {
        if (a.required) reasons.push(`Zorunlu özellik eksik: ${a.attribute.name}`);
        continue;
      }
      const ids = Array.isArray(v.attributeValueIds) ? (v.attributeValueIds as number[]) : [];
      if (ids.length === 0 && !a.allowCustom)
        reasons.push(`${a.attribute.name} özelliği listedeki bir değerle gönderilmeli`);
      if (ids.length > 1) reasons.push(`${a.attribute.name} özelliği tek değer alır`);
      for (const id of ids)
        if (!a.attributeValues.some((x) => x.id === id))
          reasons.push(`${a.attribute.name} için geçersiz değer: ${id}`);
    }
    for (const id of given.keys()) reasons.push(`Kategoride olmayan özellik: ${id}`);
    const key = variantKey((it.attributes as Row[]) ?? []);
    if (reasons.length === 0 && variantsOf.get(String(it.productMainId))?.has(key))
      reasons.push(`Bu ana ürün kodunda aynı varyant özellikleriyle ürün zaten var: ${it.productMainId}`);
    return reasons;
  };

  d.app.post(`${d.prefix}/product/sellers/:seller/v2/products`, (req, reply) =>
    d.handle(req, reply, "write", () => {
      const items = ((req.body as Row).items as Row[]) ?? [];
      const id = `${randomUUID()}-${Math.floor(d.now() / 1000)}`;
      const results = items.map((it) => {
        const reasons = refusals(it);
        if (reasons.length === 0) {
          const p: Row = {
            id: `p${d.products.length + 1}`,
            approved: false,
            barcode: it.barcode,
            stockCode: it.stockCode,
            productMainId: it.productMainId,
            title: it.title,
            categoryId: it.categoryId,
            brandId: it.brandId,
            quantity: it.quantity,
            salePrice: it.salePrice,
            listPrice: it.listPrice,
            vatRate: it.vatRate,
            attributes: it.attributes,
            batchRequestId: id,
          };
          d.products.push(p);
          d.byBarcode.set(String(it.barcode), p);
          const set = variantsOf.get(String(it.productMainId)) ?? new Set<string>();
          set.add(variantKey((it.attributes as Row[]) ?? []));
          variantsOf.set(String(it.productMainId), set);
        }
        return { requestItem: it, status: reasons.length ? "FAILED" : "SUCCESS", failureReasons: reasons };
      });
      d.batches.set(id, { readyAt: d.now() + d.batchDelayMs, items: results, create: true });
      return { batchRequestId: id };
    }),
  );
}
