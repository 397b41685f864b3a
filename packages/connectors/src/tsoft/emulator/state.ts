/** State of the T-Soft emulator: seeded Turkish catalogue as main products with sub products, categories, orders. */

import { generateCatalog, generateCustomer } from "../../testing/catalog";
import { Prng } from "../../testing/prng";

export type Row = Record<string, unknown>;

export interface TsoftSub {
  SubProductId: string;
  MainProductCode: string;
  SubProductCode: string;
  Barcode: string;
  Property1: string;
  Property2: string;
  Stock: string;
  SellingPrice: string;
  IsActive: string;
}

export interface TsoftMain {
  ProductId: string;
  ProductCode: string;
  ProductName: string;
  Barcode: string;
  Stock: string;
  SellingPrice: string;
  ListPrice: string;
  Vat: string;
  Currency: string;
  Brand: string;
  StockUnit: string;
  IsActive: string;
  DefaultCategoryId: string;
  DefaultCategoryPath: string;
  CreateDate: string;
  ImageUrl: string;
  Details: string;
  HasSubProducts: boolean;
  SubProducts: TsoftSub[];
}

export interface TsoftCategory {
  CategoryId: string;
  CategoryCode: string;
  CategoryName: string;
  ParentCode: string;
}

const dt = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

export class TsoftState {
  readonly products = new Map<string, TsoftMain>();
  readonly categories: TsoftCategory[] = [];
  readonly orders: Row[] = [];
  private seq = 1000;
  private orderSeq = 5000;
  private readonly rng: Prng;
  private readonly now: () => number;

  constructor(opts: { seed: number | string; productCount: number; orderCount?: number; now: () => number }) {
    this.rng = new Prng(`${opts.seed}:tsoft`);
    this.now = opts.now;
    const catalog = generateCatalog({ seed: opts.seed, count: opts.productCount });
    const catIds = new Map<string, string>();
    const category = (root: string, child: string): TsoftCategory => {
      for (const [name, parent] of [
        [root, "0"],
        [`${root} > ${child}`, root],
      ] as const) {
        if (!catIds.has(name)) {
          const id = String(10 + catIds.size);
          catIds.set(name, id);
          this.categories.push({
            CategoryId: id,
            CategoryCode: `T${id}`,
            CategoryName: name.split(" > ").pop() ?? name,
            ParentCode: parent === "0" ? "0" : `T${catIds.get(parent)}`,
          });
        }
      }
      const id = catIds.get(`${root} > ${child}`) ?? "";
      return this.categories.find((c) => c.CategoryId === id) as TsoftCategory;
    };
    for (const item of catalog) {
      const cat = category(item.categoryRoot, item.categoryChild);
      const variant = item.optionValue !== undefined;
      const code = variant ? item.modelCode : item.sku;
      let main = this.products.get(code);
      if (!main) {
        main = {
          ProductId: String(++this.seq),
          ProductCode: code,
          ProductName: variant ? item.modelName : item.name,
          Barcode: variant ? "" : item.barcode,
          Stock: variant ? "0" : String(item.stock1),
          SellingPrice: String(item.retailPrice),
          ListPrice: "0",
          Vat: String(item.vatRate),
          Currency: "TL",
          Brand: item.brand,
          StockUnit: item.unit,
          IsActive: "1",
          DefaultCategoryId: cat.CategoryId,
          DefaultCategoryPath: `${item.categoryRoot} > ${item.categoryChild}`,
          CreateDate: dt(item.updatedAt),
          ImageUrl: "",
          Details: "",
          HasSubProducts: variant,
          SubProducts: [],
        };
        this.products.set(code, main);
      }
      if (variant) {
        main.SubProducts.push({
          SubProductId: String(++this.seq),
          MainProductCode: code,
          SubProductCode: item.sku,
          Barcode: item.barcode,
          Property1: item.optionValue ?? "",
          Property2: "",
          Stock: String(item.stock1),
          SellingPrice: String(item.retailPrice),
          IsActive: "1",
        });
      }
    }
    if (opts.orderCount) this.generateOrders(opts.orderCount);
  }

  nextId(): string {
    return String(++this.seq);
  }

  findSub(mainCode: string, subCode: string): TsoftSub | undefined {
    return this.products.get(mainCode)?.SubProducts.find((s) => s.SubProductCode === subCode);
  }

  /** New orders of random sellable SKUs, dated now. */
  generateOrders(n: number): Row[] {
    const sellable: Array<{ code: string; name: string; price: string; vat: string }> = [];
    for (const p of this.products.values()) {
      if (p.SubProducts.length === 0)
        sellable.push({ code: p.ProductCode, name: p.ProductName, price: p.SellingPrice, vat: p.Vat });
      for (const s of p.SubProducts)
        sellable.push({
          code: s.SubProductCode,
          name: `${p.ProductName} ${s.Property1}`,
          price: s.SellingPrice,
          vat: p.Vat,
        });
    }
    const out: Row[] = [];
    if (sellable.length === 0) return out;
    for (let i = 0; i < n; i++) {
      const id = ++this.orderSeq;
      const c = generateCustomer(this.rng, id);
      const lines = Array.from({ length: this.rng.int(1, 3) }, () => {
        const s = this.rng.pick(sellable);
        const qty = this.rng.int(1, 3);
        return {
          ProductCode: s.code,
          ProductName: s.name,
          Quantity: String(qty),
          Price: s.price,
          TotalPrice: (Math.round(Number(s.price) * qty * 100) / 100).toFixed(2),
          Vat: s.vat,
          SellingCurrency: "TL",
          SellingCurrencyExchangeRate: "1",
        };
      });
      const cargo = 29.9;
      const total = lines.reduce((s, l) => s + Number(l.TotalPrice), 0) + cargo;
      const at = dt(this.now());
      const order: Row = {
        OrderId: String(id),
        OrderCode: `TS-${id}`,
        OrderDate: at,
        UpdateDate: at,
        OrderStatusId: "1",
        OrderStatus: "Onay Bekliyor",
        Currency: "TL",
        PaymentType: this.rng.pick(["Kredi Kartı", "Havale/EFT", "Kapıda Ödeme"]),
        CustomerCode: c.id,
        CustomerName: c.firstName,
        CustomerSurname: c.lastName,
        CustomerEmail: c.email,
        CustomerPhone: c.phone,
        InvoiceAddress: c.address.line1,
        InvoiceTown: c.address.district,
        InvoiceCity: c.address.city,
        DeliveryAddress: c.address.line1,
        DeliveryTown: c.address.district,
        DeliveryCity: c.address.city,
        CargoPrice: cargo.toFixed(2),
        DiscountAmount: "0",
        TotalAmount: total.toFixed(2),
        OrderDetails: lines,
      };
      this.orders.push(order);
      out.push(order);
    }
    return out;
  }
}
