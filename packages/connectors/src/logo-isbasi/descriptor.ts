import { defineConnector, secretField, textField, urlField } from "../sdk/skeleton";

export const isbasiDescriptor = defineConnector("erp", "logo-isbasi", {
  credentials: [
    secretField(
      "apiKey",
      "API anahtarı",
      "Logo Is Basi entegrasyonu için Logo'nun verdiği APIKEY (ücretli abonelik gerekir; isbasientegrasyon@logo.com.tr).",
    ),
    textField("username", "Kullanıcı (e-posta)", "Logo Is Basi yönetici kullanıcısının e-posta adresi."),
    secretField(
      "password",
      "Şifre",
      "Logo Is Basi kullanıcısının şifresi. Şifreli saklanır; yalnız girişte gönderilir.",
    ),
    textField(
      "tenantId",
      "Firma kimliği (isteğe bağlı)",
      "Hesabınızda birden çok firma varsa bağlanılacak firmanın kimliği (tenantId). Boşsa öntanımlı firma kullanılır.",
      { required: false },
    ),
    urlField(
      "apiUrl",
      "API adresi",
      "Canlı ortam için değiştirmeyin. Logo test ortamı verdiyse: https://soho-isbasi-mwv2-test.logo-paas.com",
      { default: "https://isbasimw.isbasi.com" },
    ),
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
    "Logo Is Basi REST (/api/v1.0): API anahtarı + integrationLogin → Bearer ve tenantId. Aylık kota ~3.000 okuma / 7.000 yazma. Depo stoku ve satış siparişi API'de yok: sipariş taslak satış faturası olarak yazılır.",
});
