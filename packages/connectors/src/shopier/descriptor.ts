import type { ConnectorDescriptor } from "../sdk/connector";

export const SHOPIER_DEFAULT_API_URL = "https://api.shopier.com/v1";

export const shopierDescriptor: ConnectorDescriptor & { kind: "erp" } = {
  kind: "erp",
  type: 20,
  name: "Shopier",
  system: "shopier",
  implemented: true,
  credentials: [
    {
      name: "accessToken",
      label: "Kişisel erişim anahtarı (PAT)",
      help: "Shopier panelinde Entegrasyonlar → API Erişimi ekranında oluşturulan kişisel erişim anahtarı. Ürünleri ve siparişleri okuma izni yeterlidir. Şifreli saklanır.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "vatRate",
      label: "KDV oranı (%)",
      help: "Shopier ürünlerinde KDV bilgisi tutulmaz; ürünler bu oranla aktarılır (ör. 20).",
      secret: false,
      required: false,
      type: "number",
      default: "20",
    },
    {
      name: "webhookToken",
      label: "Webhook imza anahtarı",
      help: "İsteğe bağlı: Shopier'de webhook tanımlarken verilen anahtar. Gelen bildirimlerin Shopier-Signature imzası bununla doğrulanır.",
      secret: true,
      required: false,
      type: "password",
    },
    {
      name: "apiUrl",
      label: "Shopier API adresi",
      help: "Değiştirmeyin: https://api.shopier.com/v1.",
      secret: false,
      required: false,
      type: "url",
      default: SHOPIER_DEFAULT_API_URL,
    },
  ],
  batch: { page: 50 },
  // Shopier publishes no limit; the SDK waits out 429 with Retry-After.
  budget: { requests: 2, windowMs: 1000 },
  onPremOnly: false,
  changeCursors: { products: false, stock: false, prices: false, categories: false, orders: false },
  notes:
    "Shopier bir satış platformudur; ERP olarak bağlandığında ürün kataloğu, stok ve fiyatlar Shopier'deki ürünlerden okunur. Shopier'de verilen siparişler zaten Shopier'de kayıtlıdır; başka mağazalardan gelen siparişler Shopier'e yazılamaz (Shopier API'sinde sipariş oluşturma yoktur), fatura da Shopier'den okunmaz.",
};
