/**
 * The D365 F&O emulator's data: entity sets as row lists keyed by the entity fixture's field names, seeded
 * from the shared Turkish catalogue. A model with sizes becomes a product master (item number = model code)
 * with released variants (variant number = the catalogue SKU, size in `ProductSizeId`); other SKUs are
 * distinct products. Taxes use item sales tax groups named KDV<rate>.
 */

import { type CatalogItem, generateCatalog } from "../../testing/catalog";
import { Prng } from "../../testing/prng";

export type Row = Record<string, unknown>;

export const D365_EMULATOR_WAREHOUSES: Array<[id: string, name: string, site: string]> = [
  ["IST-01", "İstanbul Merkez Ambarı", "IST"],
  ["ANK-01", "Ankara Bölge Ambarı", "ANK"],
];

export const D365_EMULATOR_HIERARCHY = "Perakende Kategorileri";

const round2 = (n: number) => Math.round(n * 100) / 100;

export class D365State {
  readonly tables = new Map<string, Row[]>();
  readonly company: string;
  private orderSeq = 0;
  private lotSeq = 0;
  private invoiceSeq = 0;

  constructor(opts: { seed: number | string; productCount: number; company: string; now: () => number }) {
    this.company = opts.company;
    const c = opts.company;
    const items = generateCatalog({ seed: opts.seed, count: opts.productCount, now: opts.now() });
    const rng = new Prng(`${opts.seed}:d365`);
    const t = (name: string) => {
      const rows: Row[] = [];
      this.tables.set(name, rows);
      return rows;
    };
    const products = t("ReleasedProductsV2");
    const variants = t("ReleasedProductVariantsV2");
    const onHand = t("WarehousesOnHandV2");
    const agreements = t("SalesPriceAgreements");
    const groups = t("PriceCustomerGroups");
    const warehouses = t("Warehouses");
    const categories = t("ProductCategories");
    const assignments = t("ProductCategoryAssignments");
    for (const name of [
      "CustomersV3",
      "SalesOrderHeadersV2",
      "SalesOrderLines",
      "SalesInvoiceHeadersV2",
      "SalesInvoiceLines",
    ])
      t(name);

    for (const [id, name, site] of D365_EMULATOR_WAREHOUSES) {
      warehouses.push({ dataAreaId: c, WarehouseId: id, WarehouseName: name, OperationalSiteId: site });
    }
    groups.push(
      { dataAreaId: c, GroupCode: "PERAKENDE", GroupName: "Perakende fiyatları", PricingPriority: 1 },
      { dataAreaId: c, GroupCode: "BAYI", GroupName: "Bayi fiyatları", PricingPriority: 2 },
    );
    // The hierarchy's root node, then the catalogue's roots and children.
    const h = D365_EMULATOR_HIERARCHY;
    categories.push({
      ProductCategoryHierarchyName: h,
      CategoryName: "Tüm Ürünler",
      ParentProductCategoryName: "",
    });
    const seenCat = new Set<string>();
    for (const i of items) {
      for (const [name, parent] of [
        [i.categoryRoot, "Tüm Ürünler"],
        [i.categoryChild, i.categoryRoot],
      ] as const) {
        if (seenCat.has(name)) continue;
        seenCat.add(name);
        categories.push({
          ProductCategoryHierarchyName: h,
          CategoryName: name,
          ParentProductCategoryName: parent,
        });
      }
    }

    const byModel = new Map<string, CatalogItem[]>();
    for (const i of items) byModel.set(i.modelCode, [...(byModel.get(i.modelCode) ?? []), i]);
    for (const [model, rows] of byModel) {
      const first = rows[0] as CatalogItem;
      const isMaster = first.optionValue !== undefined;
      const itemNumber = isMaster ? model : first.sku;
      const net = (x: CatalogItem) => round2(x.retailPrice / (1 + x.vatRate / 100));
      products.push({
        dataAreaId: c,
        ItemNumber: itemNumber,
        ProductNumber: itemNumber,
        SearchName: isMaster ? first.modelName : first.name,
        ProductSearchName: (isMaster ? first.modelName : first.name).slice(0, 20),
        ProductSubType: isMaster ? "ProductMaster" : "Product",
        SalesSalesTaxItemGroupCode: `KDV${first.vatRate}`,
        SalesUnitSymbol: first.unit,
        InventoryUnitSymbol: first.unit,
        SalesPrice: net(first),
        ProductDimensionGroupName: isMaster ? "Beden" : "",
      });
      assignments.push({
        ProductNumber: itemNumber,
        ProductCategoryHierarchyName: h,
        ProductCategoryName: first.categoryChild,
      });
      for (const v of rows) {
        const dims = isMaster
          ? {
              ProductColorId: "",
              ProductSizeId: v.optionValue ?? "",
              ProductStyleId: "",
              ProductConfigurationId: "",
            }
          : { ProductColorId: "", ProductSizeId: "", ProductStyleId: "", ProductConfigurationId: "" };
        if (isMaster) {
          variants.push({
            dataAreaId: c,
            ItemNumber: itemNumber,
            ProductMasterNumber: itemNumber,
            ProductVariantNumber: v.sku,
            ProductName: v.name,
            ...dims,
          });
        }
        for (const [w, qty] of [
          ["IST-01", v.stock1],
          ["ANK-01", v.stock2],
        ] as const) {
          const reserved = qty > 5 && rng.chance(0.2) ? rng.int(1, 3) : 0;
          onHand.push({
            dataAreaId: c,
            ItemNumber: itemNumber,
            ...dims,
            InventorySiteId: w.slice(0, 3),
            InventoryWarehouseId: w,
            OnHandQuantity: qty,
            ReservedOnHandQuantity: reserved,
            AvailableOnHandQuantity: qty - reserved,
          });
        }
        const { ProductConfigurationId, ...agreementDims } = dims;
        const base = {
          dataAreaId: c,
          ItemNumber: itemNumber,
          ...agreementDims,
          ProductconfigurationId: ProductConfigurationId,
          PriceCurrencyCode: "TRY",
          FromQuantity: 1,
          ToQuantity: 0,
          CustomerAccountNumber: "",
        };
        agreements.push(
          {
            ...base,
            PriceCustomerGroupCode: "PERAKENDE",
            Price: net(v),
            PriceApplicableFromDate: "2024-01-01T12:00:00Z",
            PriceApplicableToDate: "1900-01-01T12:00:00Z",
          },
          {
            ...base,
            PriceCustomerGroupCode: "BAYI",
            Price: v.wholesalePrice,
            PriceApplicableFromDate: "2024-06-01T12:00:00Z",
            PriceApplicableToDate: "1900-01-01T12:00:00Z",
          },
        );
        // Noise the connector must leave out: an expired agreement and a customer-specific one.
        if (rng.chance(0.2)) {
          agreements.push({
            ...base,
            PriceCustomerGroupCode: "PERAKENDE",
            Price: round2(net(v) * 0.9),
            PriceApplicableFromDate: "2023-01-01T12:00:00Z",
            PriceApplicableToDate: "2023-12-31T12:00:00Z",
          });
        }
        if (rng.chance(0.1)) {
          agreements.push({
            ...base,
            PriceCustomerGroupCode: "",
            CustomerAccountNumber: "C-0001",
            Price: round2(net(v) * 0.8),
            PriceApplicableFromDate: "2024-01-01T12:00:00Z",
            PriceApplicableToDate: "1900-01-01T12:00:00Z",
          });
        }
      }
    }
  }

  rows(set: string): Row[] {
    return this.tables.get(set) ?? [];
  }

  nextOrderNumber(): string {
    return `SO-${String(++this.orderSeq).padStart(6, "0")}`;
  }

  nextLotId(): string {
    return `LOT${String(++this.lotSeq).padStart(9, "0")}`;
  }

  /** The accountant's round: every order with lines and no invoice gets one (net + 20 % style line taxes). */
  invoiceOpenOrders(date: string): number {
    const heads = this.rows("SalesOrderHeadersV2");
    const lines = this.rows("SalesOrderLines");
    const invoiced = new Set(this.rows("SalesInvoiceHeadersV2").map((h) => h.SalesOrderNumber));
    const taxOf = (item: string): number => {
      const p = this.rows("ReleasedProductsV2").find((r) => r.ItemNumber === item);
      return Number(String(p?.SalesSalesTaxItemGroupCode ?? "KDV20").replace(/\D/g, "")) || 0;
    };
    let n = 0;
    for (const h of heads) {
      const own = lines.filter((l) => l.SalesOrderNumber === h.SalesOrderNumber);
      if (own.length === 0 || invoiced.has(h.SalesOrderNumber)) continue;
      const number = `FTR-${String(++this.invoiceSeq).padStart(6, "0")}`;
      let net = 0;
      let tax = 0;
      for (const l of own) {
        const rate = taxOf(String(l.ItemNumber));
        const qty = Number(l.OrderedSalesQuantity);
        const gross = (Number(l.SalesPrice) - Number(l.LineDiscountAmount ?? 0)) * qty;
        const lineNet = round2(gross / (1 + rate / 100));
        const lineTax = round2(gross - lineNet);
        net += lineNet;
        tax += lineTax;
        const variant = this.rows("ReleasedProductVariantsV2").find(
          (v) => v.ItemNumber === l.ItemNumber && v.ProductSizeId === (l.ProductSizeId ?? ""),
        );
        this.rows("SalesInvoiceLines").push({
          dataAreaId: this.company,
          InvoiceNumber: number,
          InvoiceDate: `${date}T12:00:00Z`,
          CurrencyCode: h.CurrencyCode ?? "TRY",
          ProductNumber: variant ? variant.ProductVariantNumber : l.ItemNumber,
          ProductName: l.LineDescription ?? "",
          InvoicedQuantity: qty,
          SalesPrice: round2(lineNet / qty),
          LineAmount: lineNet,
          LineTotalTaxAmount: lineTax,
        });
      }
      this.rows("SalesInvoiceHeadersV2").push({
        dataAreaId: this.company,
        InvoiceNumber: number,
        InvoiceDate: `${date}T12:00:00Z`,
        SalesOrderNumber: h.SalesOrderNumber,
        CurrencyCode: h.CurrencyCode ?? "TRY",
        InvoiceCustomerAccountNumber: h.InvoiceCustomerAccountNumber,
        TotalInvoiceAmount: round2(net + tax),
        TotalTaxAmount: round2(tax),
      });
      n++;
    }
    return n;
  }
}
