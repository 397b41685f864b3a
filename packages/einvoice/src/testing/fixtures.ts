import type { Order } from "@ep/connectors";
import type { InvoiceHeader, SellerInfo } from "../ubl.ts";

/** A seller as the company settings hold it (test data). */
export const seller: SellerInfo = {
  taxNumber: "1234567890",
  name: "Anadolu Ticaret A.Ş.",
  taxOffice: "Kadıköy",
  address: {
    street: "Moda Cad. No:12",
    district: "Kadıköy",
    city: "İstanbul",
    postalCode: "34710",
    country: "Türkiye",
  },
  email: "fatura@anadolu.example",
  phone: "+90 216 555 00 00",
  website: "https://www.anadolu.example",
};

export function sampleOrder(overrides: Partial<Order> = {}): Order {
  const address = {
    firstName: "Ayşe",
    lastName: "Yılmaz",
    line1: "Atatürk Bulvarı No:5 D:3",
    district: "Çankaya",
    city: "Ankara",
    postalCode: "06420",
    country: "TR",
    phone: "+90 532 000 00 00",
  };
  return {
    id: "1001",
    orderNo: "SP-1001",
    createdAt: "2026-11-20T10:00:00Z",
    updatedAt: "2026-11-20T10:00:00Z",
    status: "CREATED",
    currency: "TRY",
    customer: {
      ref: "C-1",
      firstName: "Ayşe",
      lastName: "Yılmaz",
      email: "ayse@example.com",
      isCompany: false,
      billingAddress: address,
    },
    billingAddress: address,
    shippingAddress: address,
    lines: [
      { sku: "KZK-01", name: "Kazak", qty: 2, unitPrice: 600, vatRate: 20, discount: 100, total: 1100 },
      { sku: "KTP-07", name: "Kitap", qty: 1, unitPrice: 99.9, vatRate: 10, discount: 0, total: 99.9 },
      { sku: "EKM-02", name: "Ekmek", qty: 3, unitPrice: 12.5, vatRate: 1, discount: 0, total: 37.5 },
    ],
    shipping: { method: "Yurtiçi", cost: 49.9 },
    totals: { subtotal: 1337.4, discount: 100, shipping: 49.9, tax: 0, grandTotal: 1287.3 },
    payment: { means: "KREDIKARTI/BANKAKARTI", date: "2026-11-20" },
    delivery: { carrier: "Yurtiçi Kargo", dispatchDate: "2026-11-21", trackingNumber: "YK123456789" },
    ...overrides,
  };
}

/** An e-Arşiv sale's header as the issuer writes it (test data). */
export const saleHeader: InvoiceHeader = {
  profile: "EARSIVFATURA",
  type: "SATIS",
  number: "WEB2026000000001",
  uuid: "8d0c7a1e-1111-4b3c-8d4e-0123456789ab",
  issueDate: "2026-11-20",
  issueTime: "10:15:00",
};

/** The sample order bought by a company (VKN, title, tax office) instead of a consumer. */
export function companyOrder(overrides: Partial<Order> = {}): Order {
  return sampleOrder({
    customer: {
      ...sampleOrder().customer,
      taxNumber: "9876543210",
      companyName: "Deniz Gıda Ltd. Şti.",
      isCompany: true,
      taxOffice: "Konak",
    },
    ...overrides,
  });
}
