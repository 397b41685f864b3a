/**
 * The emulated store's data, in the file's shapes (every answer is checked against the OpenAPI in the
 * emulator test): currencies, categories from the kit's Turkish tree, products (variant models become a
 * main product with child products), extra price rows, payment types and orders.
 */

import { generateCatalog, generateCustomers } from "../../testing/catalog";
import { Prng } from "../../testing/prng";
import { CARGO_COMPANIES } from "../../testing/turkish-data";
import { stockTypeLabel } from "../catalog";
import type {
  IdeaAddress,
  IdeaBrand,
  IdeaCategory,
  IdeaCurrency,
  IdeaOrder,
  IdeaOrderItem,
  IdeaProduct,
  IdeaProductPrice,
} from "../types";

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "+00:00");
const round2 = (n: number) => Math.round((n + Number.EPSILON) * 100) / 100;

const CURRENCIES: IdeaCurrency[] = [
  { id: 1, label: "Türk Lirası", abbr: "TL", status: 1, permissionStatus: 1, isPrimary: 1, isEffective: 1 },
  {
    id: 2,
    label: "Amerikan Doları",
    abbr: "USD",
    status: 1,
    permissionStatus: 1,
    isPrimary: 0,
    isEffective: 0,
  },
  { id: 3, label: "Euro", abbr: "EUR", status: 1, permissionStatus: 1, isPrimary: 0, isEffective: 0 },
];

const PAYMENT_TYPES = [
  { id: 1, name: "Kredi Kartı", sortOrder: 1 },
  { id: 2, name: "Havale", sortOrder: 2 },
  { id: 3, name: "Kapıda Ödeme Nakit", sortOrder: 3 },
];

/** What an order carries for each payment type: an online provider for the card, none for the others. */
const PAYMENTS: Array<Pick<IdeaOrder, "paymentTypeName" | "shippingPaymentType"> & Record<string, string>> = [
  {
    paymentTypeName: "Kredi Kartı",
    paymentProviderCode: "iyzico",
    paymentProviderName: "iyzico",
    paymentGatewayCode: "iyzico",
    paymentGatewayName: "iyzico",
    shippingPaymentType: "standart_delivery",
  },
  {
    paymentTypeName: "Havale",
    paymentProviderCode: "money_order",
    paymentProviderName: "Havale",
    paymentGatewayCode: "money_order",
    paymentGatewayName: "Havale",
    shippingPaymentType: "standart_delivery",
  },
  {
    paymentTypeName: "Kapıda Ödeme Nakit",
    paymentProviderCode: "cash_on_delivery",
    paymentProviderName: "Kapıda Ödeme",
    paymentGatewayCode: "cash_on_delivery",
    paymentGatewayName: "Kapıda Ödeme",
    shippingPaymentType: "cash_on_delivery",
  },
];

export interface IdeasoftStateOptions {
  seed: number | string;
  productCount: number;
  orderCount?: number;
  now: () => number;
}

export class IdeasoftState {
  readonly currencies = CURRENCIES;
  readonly paymentTypes = PAYMENT_TYPES;
  readonly categories = new Map<number, IdeaCategory>();
  readonly products = new Map<number, IdeaProduct>();
  readonly productPrices = new Map<number, IdeaProductPrice>();
  readonly orders = new Map<number, IdeaOrder>();
  private readonly brands = new Map<string, IdeaBrand>();
  private nextId = { category: 1, product: 1, price: 1, order: 100_001 };
  private readonly rng: Prng;
  private readonly now: () => number;

  constructor(opts: IdeasoftStateOptions) {
    this.now = opts.now;
    this.rng = new Prng(`${opts.seed}:ideasoft`);
    const items = generateCatalog({ seed: opts.seed, count: opts.productCount, now: this.now() });
    const byModel = new Map<string, typeof items>();
    for (const it of items) byModel.set(it.modelCode, [...(byModel.get(it.modelCode) ?? []), it]);
    for (const group of byModel.values()) {
      const first = group[0];
      if (!first) continue;
      const root = this.categoryByName(first.categoryRoot);
      const child = this.categoryByName(first.categoryChild, root);
      const common = {
        brand: this.brand(first.brand),
        tax: first.vatRate,
        stockTypeLabel: stockTypeLabel(first.unit),
        categories: [child],
        updatedAt: iso(first.updatedAt),
      };
      if (group.length === 1 && !first.optionValue) {
        this.addProduct({
          ...common,
          name: first.name,
          sku: first.sku,
          barcode: first.barcode,
          price1: first.retailPrice,
          stockAmount: first.stock1,
        });
        continue;
      }
      const main = this.addProduct({
        ...common,
        name: first.modelName,
        sku: first.modelCode,
        price1: first.retailPrice,
        stockAmount: 0,
        hasOption: 1,
      });
      for (const v of group) {
        this.addProduct({
          ...common,
          name: v.optionValue ?? v.name,
          fullName: v.name,
          sku: v.sku,
          barcode: v.barcode,
          price1: v.retailPrice,
          stockAmount: v.stock1,
          parent: { id: main.id, name: main.name },
        });
      }
    }
    this.generateOrders(opts.orderCount ?? 0);
  }

  private categoryByName(name: string, parent?: IdeaCategory): IdeaCategory {
    for (const c of this.categories.values()) if (c.name === name && c.parent?.id === parent?.id) return c;
    return this.addCategory({ name, ...(parent ? { parent } : {}) });
  }

  addCategory(input: Partial<IdeaCategory> & { name: string }): IdeaCategory {
    const id = this.nextId.category++;
    const c: IdeaCategory = {
      sortOrder: 0,
      status: 1,
      displayShowcaseContent: 0,
      showcaseContentDisplayType: 1,
      displayShowcaseFooterContent: 0,
      showcaseFooterContentDisplayType: 1,
      isCombine: 0,
      ...input,
      id,
      hasChildren: 0,
      slug: `kategori-${id}`,
      createdAt: iso(this.now()),
    };
    if (input.parent) {
      const p = this.categories.get(input.parent.id);
      if (p) {
        p.hasChildren = 1;
        c.parent = { ...p };
        delete c.parent.parent;
      }
    }
    this.categories.set(id, c);
    return c;
  }

  private brand(name: string): IdeaBrand {
    let b = this.brands.get(name);
    if (!b) {
      b = {
        id: this.brands.size + 1,
        name,
        status: 1,
        sortOrder: 0,
        displayShowcaseContent: 0,
        displayShowcaseFooterContent: 0,
      };
      this.brands.set(name, b);
    }
    return b;
  }

  addProduct(input: Partial<IdeaProduct> & { name: string; sku: string }): IdeaProduct {
    const id = this.nextId.product++;
    const p: IdeaProduct = {
      stockAmount: 0,
      price1: 0,
      currency: CURRENCIES[0] as IdeaCurrency,
      discountType: 0,
      moneyOrderDiscount: 0,
      taxIncluded: 1,
      stockTypeLabel: "Piece",
      customShippingDisabled: 1,
      hasGift: 0,
      status: 1,
      hasOption: 0,
      categoryShowcaseStatus: 0,
      createdAt: iso(this.now()),
      updatedAt: iso(this.now()),
      ...input,
      id,
    };
    this.products.set(id, p);
    if (p.parent) {
      const main = this.products.get(p.parent.id);
      if (main) main.hasOption = 1;
    }
    return p;
  }

  skuTaken(sku: string, exceptId?: number): boolean {
    for (const p of this.products.values()) if (p.sku === sku && p.id !== exceptId) return true;
    return false;
  }

  /** A product as GET /products/{id} answers it: a main product lists its variants. */
  productView(p: IdeaProduct, withChildren: boolean): IdeaProduct {
    if (!withChildren || p.parent) return { ...p };
    const children = [...this.products.values()].filter((c) => c.parent?.id === p.id);
    return children.length > 0 ? { ...p, children: children.map((c) => ({ ...c })) } : { ...p };
  }

  addProductPrice(input: Omit<IdeaProductPrice, "id">): IdeaProductPrice {
    const id = this.nextId.price++;
    const row: IdeaProductPrice = { ...input, id, product: { id: input.product.id } };
    this.productPrices.set(id, row);
    return row;
  }

  /** `n` new orders of seeded customers for products of the store. */
  generateOrders(n: number): IdeaOrder[] {
    const sellable = [...this.products.values()].filter((p) => p.hasOption === 0);
    if (sellable.length === 0 || n <= 0) return [];
    const customers = generateCustomers(`${this.rng.int(1, 1e9)}`, n);
    const out: IdeaOrder[] = [];
    for (const c of customers) {
      const id = this.nextId.order++;
      const lines: IdeaOrderItem[] = [];
      const count = this.rng.int(1, 3);
      for (let i = 0; i < count; i++) {
        const p = this.rng.pick(sellable);
        const tax = p.tax ?? 20;
        lines.push({
          id: id * 10 + i,
          productName: p.fullName ?? p.name,
          productSku: p.sku,
          ...(p.barcode ? { productBarcode: p.barcode } : {}),
          // Net unit price; the file's `productTax` is the VAT rate (inferred from its sample values).
          productPrice: round2(p.price1 / (1 + tax / 100)),
          productCurrency: "TL",
          productQuantity: this.rng.int(1, 3),
          productTax: tax,
          productDiscount: 0,
          productMoneyOrderDiscount: 0,
          productWeight: 0,
          productStockTypeLabel: p.stockTypeLabel,
          isProductPromotioned: 0,
          product: { id: p.id },
        });
      }
      const net = round2(lines.reduce((s, l) => s + l.productPrice * l.productQuantity, 0));
      const tax = round2(
        lines.reduce((s, l) => s + (l.productPrice * l.productQuantity * l.productTax) / 100, 0),
      );
      const shippingAmount = net + tax > 500 ? 0 : 49.9;
      const a = c.address;
      const addr: IdeaAddress = {
        firstname: a.firstName,
        surname: a.lastName,
        country: a.country,
        location: a.city,
        subLocation: a.district,
        address: a.line1,
        zipCode: a.postalCode,
        mobilePhoneNumber: a.phone,
      };
      const at = iso(this.now());
      // Every third order by transfer, every third paid at the door (by id: the seeded sequence stays).
      const pay = PAYMENTS[id % PAYMENTS.length] as (typeof PAYMENTS)[number];
      const o: IdeaOrder = {
        id,
        customerFirstname: c.firstName,
        customerSurname: c.lastName,
        customerEmail: c.email,
        customerPhone: c.phone,
        ...pay,
        currency: "TL",
        currencyRates: "",
        amount: net,
        couponDiscount: 0,
        taxAmount: tax,
        totalCustomTaxAmount: 0,
        promotionDiscount: 0,
        generalAmount: round2(net + tax),
        shippingAmount,
        additionalServiceAmount: 0,
        finalAmount: round2(net + tax + shippingAmount),
        sumOfGainedPoints: 0,
        installment: 1,
        installmentRate: 1,
        extraInstallment: 0,
        transactionId: `IDS${id}`,
        hasUserNote: 0,
        status: "approved",
        paymentStatus: pay.paymentTypeName === "Kredi Kartı" ? "success" : "in_transaction",
        nebimTransferStatus: 0,
        deviceType: "desktop",
        invoicePrintCount: 0,
        useGiftPackage: 0,
        usePromotion: 0,
        source: "web",
        shippingCompanyName: this.rng.pick(CARGO_COMPANIES),
        createdAt: at,
        updatedAt: at,
        orderItems: lines,
        shippingAddress: addr,
        billingAddress: {
          ...addr,
          invoiceType: c.isCompany ? "corporate" : "individual",
          ...(c.isCompany
            ? { taxNo: c.taxNumber, taxOffice: c.taxOffice }
            : { identityRegistrationNumber: c.tckn }),
        },
      };
      this.orders.set(id, o);
      out.push(o);
    }
    return out;
  }
}
