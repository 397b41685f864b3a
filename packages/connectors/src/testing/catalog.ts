/**
 * Seeded, realistic Turkish catalogue shared by the emulators. The same seed and count give the same SKUs,
 * barcodes and names in every emulator, so an ERP emulator and a shop emulator of one demo company agree.
 * Generation is a single pass and items are small flat objects (100,000 SKUs in well under a second).
 */

import { makeEan13, makeTckn, Prng } from "./prng";
import {
  ADJECTIVES,
  BRANDS,
  CATEGORY_TREE,
  CITIES,
  COLORS,
  FIRST_NAMES,
  LAST_NAMES,
  NEIGHBOURHOODS,
  STREETS,
  TAX_OFFICES,
} from "./turkish-data";

export interface CatalogItem {
  /** Stock code / SKU, unique. */
  sku: string;
  /** Model (product group) code: variants of one model share it. */
  modelCode: string;
  /** Model name without the variant option. */
  modelName: string;
  /** Full name of this SKU. */
  name: string;
  brand: string;
  categoryRoot: string;
  categoryChild: string;
  vatRate: number;
  unit: string;
  barcode: string;
  /** Variant option, e.g. { name: "Beden", value: "M" }; absent for single-variant models. */
  optionName?: string;
  optionValue?: string;
  /** Retail price, VAT included (price group 1). */
  retailPrice: number;
  /** Wholesale / dealer price, VAT excluded (price group 2). */
  wholesalePrice: number;
  /** Quantity in depot 1 and depot 2. */
  stock1: number;
  stock2: number;
  /** Last change, epoch ms. */
  updatedAt: number;
}

export interface CatalogOptions {
  seed: number | string;
  /** Number of SKUs (stock cards). */
  count: number;
  /** "Now" of the data set (epoch ms); items were last changed within the 90 days before it. */
  now?: number;
  /** Code prefix, default "STK". */
  prefix?: string;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function generateCatalog(opts: CatalogOptions): CatalogItem[] {
  const rng = new Prng(opts.seed);
  const now = opts.now ?? Date.UTC(2025, 0, 15, 9, 0, 0);
  const prefix = opts.prefix ?? "STK";
  const items: CatalogItem[] = [];
  let model = 0;
  let barcodeSerial = rng.int(100_000, 900_000) * 1000;
  while (items.length < opts.count) {
    model++;
    const root = rng.pick(CATEGORY_TREE);
    const child = rng.pick(root.children);
    const brand = rng.pick(BRANDS);
    const base = rng.pick(child.items);
    const color = child.sizes ? rng.pick(COLORS) : undefined;
    const adjective = rng.pick(ADJECTIVES);
    const modelName = color ? `${brand} ${adjective} ${base} ${color}` : `${brand} ${adjective} ${base}`;
    const modelCode = `MDL-${String(model).padStart(6, "0")}`;
    const vatRate = child.vat ?? (rng.chance(0.08) ? 10 : 20);
    const unit = child.unit ?? "Adet";
    const retail = round2(rng.int(2990, 249_990) / 100);
    const sizes = child.sizes && rng.chance(0.7) ? child.sizes : undefined;
    const variants = sizes ? sizes.slice(0, Math.min(sizes.length, opts.count - items.length)) : [undefined];
    for (const size of variants) {
      const n = items.length + 1;
      barcodeSerial += rng.int(1, 7);
      const updatedAt = now - rng.int(60_000, 90 * 86_400_000);
      const retailPrice = retail;
      items.push({
        sku: `${prefix}-${String(n).padStart(6, "0")}`,
        modelCode,
        modelName,
        name: size ? `${modelName} ${size}` : modelName,
        brand,
        categoryRoot: root.root,
        categoryChild: child.name,
        vatRate,
        unit,
        barcode: makeEan13(rng, barcodeSerial),
        optionName: size
          ? child.name.includes("Ayakkabı") || root.root === "Ayakkabı"
            ? "Numara"
            : "Beden"
          : undefined,
        optionValue: size,
        retailPrice,
        wholesalePrice: round2((retailPrice / (1 + vatRate / 100)) * 0.8),
        stock1: rng.chance(0.1) ? 0 : rng.int(1, 250),
        stock2: rng.chance(0.4) ? 0 : rng.int(1, 60),
        updatedAt,
      });
    }
  }
  return items;
}

export interface GeneratedAddress {
  firstName: string;
  lastName: string;
  line1: string;
  district: string;
  city: string;
  postalCode: string;
  country: string;
  phone: string;
}

export interface GeneratedCustomer {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  tckn: string;
  isCompany: boolean;
  companyName?: string;
  taxNumber?: string;
  taxOffice?: string;
  address: GeneratedAddress;
}

const ASCII: Record<string, string> = { ç: "c", ğ: "g", ı: "i", ö: "o", ş: "s", ü: "u", İ: "i" };

export function asciiSlug(s: string): string {
  return s
    .toLocaleLowerCase("tr-TR")
    .replace(/[çğıöşüİ]/g, (c) => ASCII[c] ?? c)
    .replace(/[^a-z0-9]+/g, ".")
    .replace(/^\.|\.$/g, "");
}

export function generateCustomer(rng: Prng, n: number): GeneratedCustomer {
  const firstName = rng.pick(FIRST_NAMES);
  const lastName = rng.pick(LAST_NAMES);
  const place = rng.pick(CITIES);
  const district = rng.pick(place.districts);
  const phone = `05${rng.pick(["30", "32", "33", "35", "42", "44", "05", "52", "55"])}${rng.digits(7)}`;
  const isCompany = rng.chance(0.1);
  const address: GeneratedAddress = {
    firstName,
    lastName,
    line1: `${rng.pick(NEIGHBOURHOODS)}, ${rng.pick(STREETS)} No: ${rng.int(1, 180)} D: ${rng.int(1, 24)}`,
    district,
    city: place.city,
    postalCode: `${place.postal}${rng.digits(3)}`,
    country: "Türkiye",
    phone,
  };
  return {
    id: `C${String(n).padStart(6, "0")}`,
    firstName,
    lastName,
    email: `${asciiSlug(firstName)}.${asciiSlug(lastName)}${n}@example.com.tr`,
    phone,
    tckn: makeTckn(rng),
    isCompany,
    companyName: isCompany ? `${lastName} Ticaret Ltd. Şti.` : undefined,
    taxNumber: isCompany ? rng.digits(10) : undefined,
    taxOffice: isCompany ? rng.pick(TAX_OFFICES) : undefined,
    address,
  };
}

export function generateCustomers(seed: number | string, count: number): GeneratedCustomer[] {
  const rng = new Prng(`${seed}:customers`);
  return Array.from({ length: count }, (_, i) => generateCustomer(rng, i + 1));
}

/** A marketplace category node as the Trendyol and n11 trees give it: two levels, leaves under roots. */
export interface CategoryNode {
  id: number;
  name: string;
  parentId: number | null;
  subCategories: CategoryNode[] | null;
}

/**
 * The two-level category tree of a marketplace emulator, built from its catalogue's roots and children:
 * `categoryOf` gives a (root, child) pair its leaf id, numbering nodes from `firstId + 1` in the order first
 * met. `leafChildren` is what a leaf's `subCategories` holds (Trendyol `[]`, n11 `null`).
 */
export function categoryTree(firstId: number, leafChildren: [] | null) {
  const ids = new Map<string, number>();
  const tree: CategoryNode[] = [];
  let next = firstId;
  const categoryOf = (root: string, child: string): number => {
    let r = ids.get(root);
    if (r === undefined) {
      r = ++next;
      ids.set(root, r);
      tree.push({ id: r, name: root, parentId: null, subCategories: [] });
    }
    const key = `${root}/${child}`;
    let c = ids.get(key);
    if (c === undefined) {
      c = ++next;
      ids.set(key, c);
      const rootId = r;
      tree
        .find((t) => t.id === rootId)
        ?.subCategories?.push({
          id: c,
          name: child,
          parentId: r,
          subCategories: leafChildren === null ? null : [],
        });
    }
    return c;
  };
  return { tree, categoryOf };
}
