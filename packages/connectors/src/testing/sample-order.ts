/** The shop order the ERP connectors' contract tests write: one builder, each test overriding what it needs. */
import type { Address, Customer, Order, OrderLine, Product } from "../sdk/model";

export interface SampleOrderOverrides extends Partial<Omit<Order, "customer" | "lines">> {
  /** Fields of the one address the order and its customer use. */
  address?: Partial<Address>;
  customer?: Partial<Customer>;
  /** A line's fields besides its sku; `total` defaults to qty × price − discount. */
  line?: (sku: string, index: number) => Partial<Omit<OrderLine, "sku">>;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/**
 * A shop order of `skus` (one line each, by default 2 × 120 TRY at 20 % VAT included) by a private
 * customer in İstanbul, shipped by Yurtiçi Kargo for 49.90. Totals follow the lines and shipping
 * unless `totals` is given.
 */
export function sampleOrder(no: string, skus: string[], over: SampleOrderOverrides = {}): Order {
  const { address: addressOver, customer, line, ...rest } = over;
  const address: Address = {
    firstName: "Ayşe",
    lastName: "Yılmaz",
    line1: "Cumhuriyet Mahallesi, Atatürk Caddesi No: 5 D: 3",
    district: "Kadıköy",
    city: "İstanbul",
    postalCode: "34710",
    country: "Türkiye",
    phone: "05321234567",
    ...addressOver,
  };
  const lines: OrderLine[] = skus.map((sku, i) => {
    const l = { name: sku, qty: 2, unitPrice: 120, vatRate: 20, discount: 0, ...line?.(sku, i) };
    return { sku, ...l, total: l.total ?? round2(l.qty * l.unitPrice - l.discount) };
  });
  const shipping = rest.shipping ?? { cost: 49.9, method: "Yurtiçi Kargo" };
  const gross = lines.reduce((sum, l) => sum + l.qty * l.unitPrice, 0);
  return {
    id: `shop-${no}`,
    orderNo: no,
    createdAt: "2026-11-15T08:30:00.000Z",
    updatedAt: rest.createdAt ?? "2026-11-15T08:30:00.000Z",
    status: "UNFULFILLED",
    currency: "TRY",
    customer: {
      ref: "ikas-C000123",
      firstName: address.firstName,
      lastName: address.lastName,
      email: "ayse@example.com.tr",
      isCompany: false,
      billingAddress: address,
      ...customer,
    },
    billingAddress: address,
    shippingAddress: address,
    lines,
    shipping,
    totals: {
      subtotal: round2(gross),
      discount: round2(lines.reduce((sum, l) => sum + l.discount, 0)),
      shipping: shipping.cost,
      tax: round2(lines.reduce((sum, l) => sum + (l.qty * l.unitPrice * l.vatRate) / (100 + l.vatRate), 0)),
      grandTotal: round2(lines.reduce((sum, l) => sum + l.total, 0) + shipping.cost),
    },
    ...rest,
  };
}

/**
 * The shop product the shop connectors' contract tests write: one variant with a barcode, or one variant
 * per size ("Beden") without barcodes; 20 % VAT, active, no images.
 */
export function sampleProduct(sku: string, sizes: string[] = [], categoryPath = ["Giyim"]): Product {
  return {
    sku,
    name: `Test Ürün ${sku}`,
    brand: "Deneme Marka",
    categoryPath,
    vatRate: 20,
    unit: "Adet",
    images: [],
    isActive: true,
    variants:
      sizes.length === 0
        ? [{ sku, barcodes: ["8690000000017"], options: {} }]
        : sizes.map((s) => ({ sku: `${sku}-${s}`, barcodes: [], options: { Beden: s } })),
  };
}
