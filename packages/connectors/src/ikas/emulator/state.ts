/** In-memory store of the IKAS emulator: products/variants, stock per location, prices per list, orders. */

import {
  type CatalogItem,
  type GeneratedCustomer,
  generateCatalog,
  generateCustomer,
} from "../../testing/catalog";
import { Prng } from "../../testing/prng";
import { CARGO_COMPANIES } from "../../testing/turkish-data";
import type {
  IkasAddress,
  IkasCategory,
  IkasNamed,
  IkasOrder,
  IkasOrderLine,
  IkasProduct,
  IkasValueRef,
  IkasVariant,
  IkasVariantType,
} from "./types";

export interface IkasStateOptions {
  seed: number | string;
  productCount: number;
  storeName: string;
  now: () => number;
  /** Seed with N orders. */
  orderCount?: number;
  /** The order number the store gave last (default 1000): the next order is this + 1. */
  lastOrderNumber?: number;
}

export class IkasState {
  readonly storeName: string;
  readonly merchantId: string;
  readonly products = new Map<string, IkasProduct>();
  readonly categories = new Map<string, IkasCategory>();
  readonly brands = new Map<string, IkasNamed>();
  readonly variantTypes = new Map<string, IkasVariantType>();
  readonly stockLocations: IkasNamed[];
  readonly priceLists: Array<IkasNamed & { currency: string; currencyCode: string }>;
  readonly salesChannels: Array<IkasNamed & { type: string }>;
  readonly paymentGateways: Array<
    IkasNamed & {
      code: string;
      paymentMethodType: string;
      paymentMethods: never[];
      testMode: boolean;
      type: string;
    }
  >;
  /** The private app the emulated store authorized (`getAuthorizedApp`, `addOrderInvoice.appId`). */
  readonly authorizedApp: { id: string; storeAppId: string; partnerId: string; name: string };
  readonly orders: IkasOrder[] = [];
  private readonly ordersById = new Map<string, IkasOrder>();
  /** sku -> [productId, variantId] */
  readonly skuIndex = new Map<string, [string, string]>();
  /** variantId -> productId */
  readonly variantIndex = new Map<string, string>();
  private readonly rng: Prng;
  private readonly idRng: Prng;
  private readonly now: () => number;
  private orderSeq = 1000;
  private customerSeq = 0;
  private lastTs = 0;

  constructor(opts: IkasStateOptions) {
    this.storeName = opts.storeName;
    this.now = opts.now;
    this.rng = new Prng(`${opts.seed}:ikas`);
    this.idRng = new Prng(`${opts.seed}:ikas-ids`);
    this.merchantId = this.uuid();
    this.orderSeq = opts.lastOrderNumber ?? this.orderSeq;
    this.stockLocations = [
      { id: this.uuid(), name: "Merkez Depo", deleted: false },
      { id: this.uuid(), name: "İstanbul Mağaza", deleted: false },
    ];
    this.priceLists = [
      { id: this.uuid(), name: "Bayi Fiyat Listesi", currency: "TRY", currencyCode: "TRY", deleted: false },
    ];
    this.salesChannels = [
      { id: this.uuid(), name: "Online Mağaza", type: "STOREFRONT", deleted: false },
      { id: this.uuid(), name: "Mobil Uygulama", type: "APP", deleted: false },
    ];
    const gateway = (name: string, code: string, paymentMethodType: string) => ({
      id: this.uuid(),
      name,
      code,
      paymentMethodType,
      paymentMethods: [],
      testMode: false,
      type: "INTERNAL",
      deleted: false,
    });
    this.paymentGateways = [
      gateway("Kredi Kartı (iyzico)", "iyzico", "CREDIT_CARD"),
      gateway("Havale / EFT", "money-order", "MONEY_ORDER"),
      gateway("Kapıda Ödeme", "cash-on-delivery", "CASH_ON_DELIVERY"),
    ];
    this.authorizedApp = {
      id: this.uuid(),
      storeAppId: this.uuid(),
      partnerId: this.uuid(),
      name: "Entegrasyon Paneli",
    };
    if (opts.productCount > 0)
      this.seedCatalog(generateCatalog({ seed: opts.seed, count: opts.productCount }));
    if (opts.orderCount) this.generateOrders(opts.orderCount);
  }

  /** A monotonic "now" so that every change gets a distinct, increasing updatedAt. */
  tick(): number {
    const t = Math.max(this.now(), this.lastTs + 1);
    this.lastTs = t;
    return t;
  }

  uuid(): string {
    const h = () =>
      Math.floor(this.idRng.next() * 0x10000)
        .toString(16)
        .padStart(4, "0");
    return `${h()}${h()}-${h()}-4${h().slice(1)}-a${h().slice(1)}-${h()}${h()}${h()}`;
  }

  private categoryFor(root: string, child: string): string {
    let rootCat = [...this.categories.values()].find((c) => c.name === root && c.parentId === null);
    if (!rootCat) rootCat = this.addCategory(root, null);
    const rootId = rootCat.id;
    let childCat = [...this.categories.values()].find((c) => c.name === child && c.parentId === rootId);
    if (!childCat) childCat = this.addCategory(child, rootId);
    return childCat.id;
  }

  addCategory(name: string, parentId: string | null): IkasCategory {
    const ts = this.tick();
    const c: IkasCategory = { id: this.uuid(), name, parentId, createdAt: ts, updatedAt: ts, deleted: false };
    this.categories.set(c.id, c);
    return c;
  }

  brandFor(name: string): string {
    for (const b of this.brands.values()) if (b.name === name) return b.id;
    const b = { id: this.uuid(), name, deleted: false };
    this.brands.set(b.id, b);
    return b.id;
  }

  /** The type named `typeName` and its value `valueName`, created when missing. */
  variantValueFor(typeName: string, valueName: string): IkasValueRef {
    let type = [...this.variantTypes.values()].find((t) => t.name === typeName && !t.deleted);
    if (!type) {
      const ts = this.tick();
      type = {
        id: this.uuid(),
        name: typeName,
        selectionType: "CHOICE",
        values: [],
        createdAt: ts,
        updatedAt: ts,
        deleted: false,
      };
      this.variantTypes.set(type.id, type);
    }
    let value = type.values.find((v) => v.name === valueName);
    if (!value) {
      value = { id: this.uuid(), name: valueName, deleted: false };
      type.values.push(value);
    }
    return { variantTypeId: type.id, variantValueId: value.id };
  }

  private seedCatalog(items: CatalogItem[]): void {
    const catCache = new Map<string, string>();
    const brandCache = new Map<string, string>();
    const dealerList = this.priceLists[0]?.id ?? null;
    // Shared, never mutated in place (saves memory on 100k-product stores).
    const channels = this.salesChannels.map((s) => s.id);
    const noValues: IkasValueRef[] = [];
    let current: IkasProduct | undefined;
    let currentModel: string | undefined;
    for (const it of items) {
      if (!current || currentModel !== it.modelCode) {
        const key = `${it.categoryRoot}/${it.categoryChild}`;
        let catId = catCache.get(key);
        if (!catId) {
          catId = this.categoryFor(it.categoryRoot, it.categoryChild);
          catCache.set(key, catId);
        }
        let brandId = brandCache.get(it.brand);
        if (!brandId) {
          brandId = this.brandFor(it.brand);
          brandCache.set(it.brand, brandId);
        }
        current = {
          id: this.uuid(),
          name: it.modelName,
          description: null,
          type: "PHYSICAL",
          brandId,
          categoryIds: [catId],
          salesChannelIds: channels,
          productVariantTypes: [],
          vatRate: it.vatRate,
          variants: [],
          createdAt: it.updatedAt,
          updatedAt: it.updatedAt,
          deleted: false,
        };
        currentModel = it.modelCode;
        this.products.set(current.id, current);
      }
      const v: IkasVariant = {
        id: this.uuid(),
        sku: it.sku,
        barcodeList: [it.barcode],
        isActive: true,
        prices: [
          {
            priceListId: null,
            sellPrice: it.retailPrice,
            discountPrice: null,
            buyPrice: null,
            currency: "TRY",
          },
          {
            priceListId: dealerList,
            sellPrice: it.wholesalePrice,
            discountPrice: null,
            buyPrice: null,
            currency: "TRY",
          },
        ],
        stocks: [
          { stockLocationId: this.stockLocations[0]?.id ?? "", stockCount: it.stock1 },
          { stockLocationId: this.stockLocations[1]?.id ?? "", stockCount: it.stock2 },
        ],
        variantValueIds:
          it.optionName && it.optionValue ? [this.variantValueFor(it.optionName, it.optionValue)] : noValues,
        deleted: false,
      };
      for (const ref of v.variantValueIds) {
        let pvt = current.productVariantTypes.find((t) => t.variantTypeId === ref.variantTypeId);
        if (!pvt) {
          pvt = {
            order: current.productVariantTypes.length,
            variantTypeId: ref.variantTypeId,
            variantValueIds: [],
          };
          current.productVariantTypes.push(pvt);
        }
        if (!pvt.variantValueIds.includes(ref.variantValueId)) pvt.variantValueIds.push(ref.variantValueId);
      }
      current.variants.push(v);
      this.skuIndex.set(it.sku, [current.id, v.id]);
      this.variantIndex.set(v.id, current.id);
    }
  }

  /** Re-index a product after a save. */
  indexProduct(p: IkasProduct): void {
    for (const v of p.variants) {
      if (v.sku) this.skuIndex.set(v.sku, [p.id, v.id]);
      this.variantIndex.set(v.id, p.id);
    }
  }

  unindexProduct(p: IkasProduct): void {
    for (const v of p.variants) {
      if (v.sku && this.skuIndex.get(v.sku)?.[1] === v.id) this.skuIndex.delete(v.sku);
      this.variantIndex.delete(v.id);
    }
  }

  findVariant(productId: string, variantId: string): IkasVariant | undefined {
    const p = this.products.get(productId);
    return p?.variants.find((v) => v.id === variantId);
  }

  // ---- orders ----

  private customers: GeneratedCustomer[] = [];

  private nextCustomer(): GeneratedCustomer {
    if (this.customers.length < 50 || this.rng.chance(0.3)) {
      const c = generateCustomer(this.rng, ++this.customerSeq);
      this.customers.push(c);
      return c;
    }
    return this.rng.pick(this.customers);
  }

  getOrder(id: string): IkasOrder | undefined {
    return this.ordersById.get(id);
  }

  /**
   * Create `n` new orders from products that have stock and a price. Returns them. `orderedAt[i]`, when
   * given, is when the i-th was placed (an order placed earlier, seen now: its updatedAt is still now).
   */
  generateOrders(n: number, orderedAt: readonly number[] = []): IkasOrder[] {
    const sellable: Array<[IkasProduct, IkasVariant]> = [];
    for (const p of this.products.values()) {
      if (p.deleted) continue;
      for (const v of p.variants)
        if (v.isActive && v.prices.some((x) => x.priceListId === null)) sellable.push([p, v]);
      if (sellable.length > 5000) break;
    }
    const out: IkasOrder[] = [];
    if (sellable.length === 0) return out;
    for (let i = 0; i < n; i++) {
      const changed = this.tick();
      const ts = orderedAt[i] ?? changed;
      const c = this.nextCustomer();
      const addr: IkasAddress = {
        firstName: c.address.firstName,
        lastName: c.address.lastName,
        company: c.companyName ?? null,
        addressLine1: c.address.line1,
        addressLine2: null,
        city: { name: c.address.city },
        district: { name: c.address.district },
        country: { name: c.address.country },
        postalCode: c.address.postalCode,
        phone: c.phone,
        identityNumber: c.isCompany ? null : c.tckn,
        taxNumber: c.taxNumber ?? null,
        taxOffice: c.taxOffice ?? null,
        isDefault: true,
      };
      const lineCount = this.rng.int(1, 3);
      const lines: IkasOrderLine[] = [];
      for (let l = 0; l < lineCount; l++) {
        const [p, v] = this.rng.pick(sellable);
        const price = v.prices.find((x) => x.priceListId === null)?.sellPrice ?? 0;
        const qty = this.rng.int(1, 3);
        const vat = p.vatRate ?? 20;
        const finalPrice = Math.round(price * qty * 100) / 100;
        lines.push({
          id: this.uuid(),
          status: "UNFULFILLED",
          deleted: false,
          quantity: qty,
          price,
          finalPrice,
          discountPrice: null,
          taxValue: vat,
          variant: { id: v.id, sku: v.sku, name: p.name, productId: p.id, barcodeList: v.barcodeList },
        });
      }
      const itemsTotal = Math.round(lines.reduce((a, l) => a + l.finalPrice, 0) * 100) / 100;
      const shipping = itemsTotal >= 500 ? 0 : 49.9;
      const gateway = this.rng.pick(this.paymentGateways);
      const channel = this.salesChannels[0];
      const order: IkasOrder = {
        id: this.uuid(),
        merchantId: this.merchantId,
        deleted: false,
        archived: false,
        currencyRates: [],
        shippingMethod: "SHIPMENT",
        salesChannel: { id: channel?.id ?? "", name: channel?.name ?? "" },
        orderNumber: String(++this.orderSeq),
        status: "CREATED",
        orderPaymentStatus: gateway.paymentMethodType === "CASH_ON_DELIVERY" ? "WAITING" : "PAID",
        orderPackageStatus: "UNFULFILLED",
        currencyCode: "TRY",
        totalPrice: itemsTotal,
        totalFinalPrice: Math.round((itemsTotal + shipping) * 100) / 100,
        orderedAt: ts,
        createdAt: ts,
        updatedAt: changed,
        salesChannelId: channel?.id ?? "",
        note: this.rng.chance(0.1) ? "Lütfen zili çalmayın." : null,
        customer: { id: c.id, firstName: c.firstName, lastName: c.lastName, email: c.email, phone: c.phone },
        billingAddress: addr,
        shippingAddress: { ...addr },
        shippingLines: [{ title: this.rng.pick(CARGO_COMPANIES), price: shipping, finalPrice: shipping }],
        paymentMethods: [
          {
            type: gateway.paymentMethodType,
            paymentGatewayName: gateway.name,
            price: Math.round((itemsTotal + shipping) * 100) / 100,
          },
        ],
        orderLineItems: lines,
        // Unfulfilled orders have no package until fulfillOrder creates one.
        orderPackages: [],
        invoices: [],
      };
      this.orders.push(order);
      this.ordersById.set(order.id, order);
      out.push(order);
    }
    return out;
  }

  /** Touch an order (e.g. the customer changed it): it moves to the end of the updatedAt order. */
  touchOrder(order: IkasOrder): void {
    order.updatedAt = this.tick();
  }
}
