import { defineConnector } from "../sdk/skeleton";

export const isbasiDescriptor = defineConnector("erp", {
  type: 21,
  name: "Logo Is Basi",
  system: "logo-isbasi",
  credentials: [
    {
      name: "apiKey",
      label: "API anahtarı",
      help: "Logo'nun İşbaşı entegrasyonu için verdiği APIKEY (ücretli abonelik gerekir; isbasientegrasyon@logo.com.tr).",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "username",
      label: "Kullanıcı (e-posta)",
      help: "İşbaşı yönetici kullanıcısının e-posta adresi.",
      secret: false,
      required: true,
      type: "text",
    },
    {
      name: "password",
      label: "Şifre",
      help: "İşbaşı kullanıcısının şifresi. Şifreli saklanır; yalnız girişte gönderilir.",
      secret: true,
      required: true,
      type: "password",
    },
    {
      name: "tenantId",
      label: "Firma kimliği (isteğe bağlı)",
      help: "Hesabınızda birden çok firma varsa bağlanılacak firmanın kimliği (tenantId). Boşsa öntanımlı firma kullanılır.",
      secret: false,
      required: false,
      type: "text",
    },
    {
      name: "apiUrl",
      label: "API adresi",
      help: "Canlı ortam için değiştirmeyin. Logo test ortamı verdiyse: https://soho-isbasi-mwv2-test.logo-paas.com",
      secret: false,
      required: false,
      type: "url",
      default: "https://isbasimw.isbasi.com",
    },
  ],
  // The quota, not speed, is the limit: the biggest page the list endpoints were seen with live (100).
  batch: { page: 100 },
  budget: { requests: 5, windowMs: 1000 },
  changeCursors: { products: true, prices: true },
  metering: {
    kind: "quota",
    monthlyQuota: { read: 3000, write: 7000 },
    // A run with nothing changed: one product page (and a login once a day).
    minRunCalls: { read: 2, write: 0 },
    warnAt: 0.8,
  },
  notes:
    "Logo İşbaşı REST (/api/v1.0): API anahtarı + integrationLogin → Bearer ve tenantId. Aylık kota ~3.000 okuma / 7.000 yazma. Depo stoku ve satış siparişi API'de yok: sipariş taslak satış faturası olarak yazılır.",
});
